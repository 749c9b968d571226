// A case's parameters as the C ABI passes them: by spec name, each in the
// Datatype its spec declares (an INT_32 parameter arrives as int32, a BOOL_8
// as one byte, a tensor parameter as `count` elements, an enumeration as its
// index, or as its name when the spec declares STRING).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/case.hpp"
#include "oprig/oprig_package.h"

namespace oprig::harness {

class AbiParams {
 public:
  // Throws std::runtime_error naming the parameter when a value does not fit
  // its spec type or the spec has no such parameter.
  AbiParams(const nlohmann::json& params, const OpCaseSpace& space);
  AbiParams(const AbiParams&) = delete;
  AbiParams& operator=(const AbiParams&) = delete;

  const oprig_param* data() const { return params_.empty() ? nullptr : params_.data(); }
  size_t size() const { return params_.size(); }

 private:
  std::vector<std::string> names_;
  std::vector<std::vector<std::byte>> storage_;
  std::vector<oprig_param> params_;
};

}  // namespace oprig::harness
