// The dsp Backend implementation (device.cpp); registration.cpp exposes it.
#pragma once

#include <memory>

#include "backend.hpp"

namespace oprig::dsp {

std::unique_ptr<Backend> make_backend();

}  // namespace oprig::dsp
