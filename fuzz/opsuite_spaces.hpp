// The case spaces of the bundled ops (opsuite/<op>/plan.json's spec), read
// once: plans and golden manifests are judged against the op they name, as
// `oprig run` does; an op the opsuite lacks gets Atan's.
#pragma once

#include <string>
#include <vector>

#include "cases/case.hpp"

namespace oprig::fuzz {

const harness::OpCaseSpace& space_for(const std::string& op);
const std::vector<std::string>& all_backends();

}  // namespace oprig::fuzz
