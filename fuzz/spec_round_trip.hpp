// The checks both spec targets make on what a reader accepted: every view of
// the IR renders, resolution works on every backend, and the IR goes through
// both writers and back unchanged.
#pragma once

#include "spec/load.hpp"

namespace oprig::fuzz {

void check_loaded_spec(const spec::LoadResult& loaded, bool from_xml);

}  // namespace oprig::fuzz
