// The vulkan host side Quantize and Dequantize share: one shader with a
// specialisation per 8-bit code type (constant 1: 0 UINT_8, 1 INT_8), two
// bindings (the input, the output) and push constants that begin with the
// element count, recorded as one grid-stride dispatch of count/4
// invocations. Each op keeps its own checks and push constants; the rest
// lived line for line in both. Needs no optional device feature.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

#include "common/vulkan_pipeline.hpp"
#include "oprig/oprig_package.h"

namespace oprig::opsuite {

class VulkanCodePipeline {
 public:
  // The layout for `push_bytes` of push constants and the shader module.
  oprig_status create(const oprig_backend_context& ctx, std::span<const unsigned char> spirv, uint32_t push_bytes);
  // For `count` elements of the code type: UNSUPPORTED past 32-bit indices
  // or when the fp32 side (4 bytes an element) exceeds one binding's range;
  // BACKEND_ERROR when the pipeline cannot be made.
  oprig_status prepare(uint64_t count, bool is_signed);
  // Records the dispatch prepared last over `count` elements (nothing for 0).
  oprig_status record(const oprig_execute_info& info, const oprig_tensor& in, const oprig_tensor& out,
                      const void* push, uint32_t push_bytes, uint32_t count);

 private:
  VulkanPipelines pipelines_;
  int module_ = -1;
  bool is_signed_ = false;
};

}  // namespace oprig::opsuite
