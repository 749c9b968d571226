// A PixelGrid (pixel_grid.hpp) on the vulkan backend, where tensors are
// 32-bit words: channel runs of 16 bytes (one uvec4 per invocation) where a
// pixel's channels fill them, of one word where they fill words, and
// otherwise (or where the grid would pass the work-group counts every device
// takes) one output word per invocation on a grid-stride line, each of its
// elements found on its own. common/glsl/pixel_grid.glsl is the shader side.
// VulkanPixelKernel is what an instance of a one-input, one-output op keeps
// (Pool2D, Resize).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "common/pixel_grid.hpp"
#include "common/vulkan_pipeline.hpp"

namespace oprig::opsuite {

enum class PixelPath : uint32_t { kQuads, kWords, kElements };  // pixel_grid.glsl's kPath

struct VulkanPixelPlan {
  PixelPath path = PixelPath::kElements;
  PixelGrid grid;           // kQuads, kWords
  uint32_t out_words = 0;   // kElements: invocations
  uint32_t run_bytes = 4;   // kQuads 16, else 4
};

// Whether tensors of these sizes can be bound and indexed in 32 bits.
inline bool pixel_tensors_fit(const VulkanPipelines& pipelines, uint64_t in_bytes, uint64_t out_bytes) {
  return in_bytes <= UINT32_MAX && out_bytes <= UINT32_MAX && in_bytes <= pipelines.max_range() &&
         out_bytes <= pipelines.max_range();
}

inline VulkanPixelPlan plan_vulkan_pixels(uint64_t pixel_bytes, uint64_t out_bytes, int64_t out_height,
                                          int64_t out_width, int64_t batch) {
  constexpr uint64_t kMinGroupCount = 65535;  // every device takes this many work-groups along each dimension
  VulkanPixelPlan plan;
  plan.run_bytes = pixel_bytes % 16 == 0 ? 16 : 4;
  plan.grid = pixel_grid(pixel_bytes, plan.run_bytes, out_height, out_width, batch);
  const uint64_t row_groups = (plan.grid.row_items + VulkanPipelines::kLocalSize - 1) / VulkanPipelines::kLocalSize;
  const bool by_pixel = pixel_bytes % 4 == 0 && row_groups <= kMinGroupCount &&
                        static_cast<uint64_t>(out_height) <= kMinGroupCount &&
                        static_cast<uint64_t>(batch) <= kMinGroupCount;
  plan.path = !by_pixel ? PixelPath::kElements : plan.run_bytes == 16 ? PixelPath::kQuads : PixelPath::kWords;
  plan.out_words = static_cast<uint32_t>((out_bytes + 3) / 4);
  return plan;
}

// Records the dispatch of `pipeline` (one prepared with kPath = plan.path);
// nothing for an empty output.
inline oprig_status record_pixel_plan(VulkanPipelines& pipelines, VkCommandBuffer cmd, VkPipeline pipeline,
                                      std::span<const oprig_tensor> tensors, const void* push, uint32_t push_bytes,
                                      const VulkanPixelPlan& plan) {
  if (plan.path == PixelPath::kElements) {
    if (plan.out_words == 0) return OPRIG_STATUS_OK;
    return pipelines.record(cmd, pipeline, tensors, push, push_bytes, plan.out_words);
  }
  if (plan.grid.empty()) return OPRIG_STATUS_OK;
  const uint32_t row_groups = (plan.grid.row_items + VulkanPipelines::kLocalSize - 1) / VulkanPipelines::kLocalSize;
  return pipelines.record_groups(cmd, pipeline, tensors, push, push_bytes, row_groups, plan.grid.rows,
                                 plan.grid.images);
}

struct VulkanPixelKernel {
  VulkanPipelines pipelines;
  int module = -1;
  bool fp64 = false;                     // the module is the fp64 one
  VkPipeline pipeline = VK_NULL_HANDLE;  // the one prepare chose
  VulkanPixelPlan plan;

  // create(): bindings (input, output, then the op's own), push constants,
  // and the shader: `spirv_fp64` where given and the device has
  // shaderFloat64 (the backend enables it where present), else `spirv`.
  oprig_status init(const oprig_backend_context& ctx, uint32_t bindings, uint32_t push_bytes,
                    std::span<const unsigned char> spirv, std::span<const unsigned char> spirv_fp64 = {}) {
    const oprig_status st = pipelines.init(ctx, bindings, push_bytes);
    if (st != OPRIG_STATUS_OK) return st;
    fp64 = !spirv_fp64.empty() && pipelines.has_float64();
    module = pipelines.add_module(fp64 ? spirv_fp64 : spirv);
    return module < 0 ? OPRIG_STATUS_BACKEND_ERROR : OPRIG_STATUS_OK;
  }

  // prepare(): the plan for tensors of these sizes (UNSUPPORTED where they
  // pass 32-bit indexing or a binding's limit), then the pipeline with spec
  // constants 1.. = `constants` and the path after them.
  oprig_status plan_for(uint64_t in_bytes, uint64_t pixel_bytes, uint64_t out_bytes, int64_t out_height,
                        int64_t out_width, int64_t batch) {
    pipeline = VK_NULL_HANDLE;
    if (!pixel_tensors_fit(pipelines, in_bytes, out_bytes)) return OPRIG_STATUS_UNSUPPORTED;
    plan = plan_vulkan_pixels(pixel_bytes, out_bytes, out_height, out_width, batch);
    return OPRIG_STATUS_OK;
  }
  oprig_status choose(std::initializer_list<uint32_t> constants) {
    std::vector<uint32_t> all(constants);
    all.push_back(static_cast<uint32_t>(plan.path));
    pipeline = pipelines.pipeline(module, all);
    return pipeline == VK_NULL_HANDLE ? OPRIG_STATUS_BACKEND_ERROR : OPRIG_STATUS_OK;
  }

  // execute(): binds the input, the output and `more`, records the dispatch.
  oprig_status record(const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs, size_t num_outputs,
                      oprig_execute_info* info, std::span<const oprig_tensor> more, const void* push,
                      uint32_t push_bytes) {
    if (num_inputs != 1 || num_outputs != 1 || inputs == nullptr || outputs == nullptr || info == nullptr ||
        info->vk_command_buffer == nullptr || more.size() > 6)
      return OPRIG_STATUS_INVALID_ARGUMENT;
    if (pipeline == VK_NULL_HANDLE) return OPRIG_STATUS_INVALID_ARGUMENT;  // not prepared
    oprig_tensor tensors[8] = {inputs[0], outputs[0]};
    for (size_t i = 0; i < more.size(); ++i) tensors[2 + i] = more[i];
    return record_pixel_plan(pipelines, static_cast<VkCommandBuffer>(info->vk_command_buffer), pipeline,
                             std::span<const oprig_tensor>(tensors, 2 + more.size()), push, push_bytes, plan);
  }
};

}  // namespace oprig::opsuite
