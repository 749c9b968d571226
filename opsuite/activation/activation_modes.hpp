// The modes of Activation as every kernel (cpu, opencl, vulkan) reads them:
// the `mode` parameter by the spec's Enumeration (index 0 RELU .. 7
// HARD_SWISH, the order of the kernels' own tables), and the floating-point
// operations per element of the fast formulas for cost() (a division or an
// FMA counted as one).
#pragma once

#include <cstdint>
#include <optional>

#include "common/kernel.hpp"

namespace oprig::opsuite {

inline constexpr int kActivationModeCount = 8;

// The spec's names, by index (what activation_fp64 takes).
inline constexpr const char* kActivationModeNames[kActivationModeCount] = {
    "RELU", "RELU6", "SIGMOID", "TANH", "GELU_ERF", "GELU_TANH", "SILU", "HARD_SWISH"};

// The mode's index, or nothing / -1 as enum_param gives them (absent / not one of the eight).
inline std::optional<int> activation_mode(const oprig_param* params, size_t num_params) {
  return enum_param(params, num_params, "mode",
                    {"RELU", "RELU6", "SIGMOID", "TANH", "GELU_ERF", "GELU_TANH", "SILU", "HARD_SWISH"});
}

inline constexpr uint64_t kActivationFlopsPerElement[kActivationModeCount] = {1, 2, 16, 26, 36, 40, 16, 6};

}  // namespace oprig::opsuite
