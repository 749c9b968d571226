// TopK on the vulkan backend: host side of vulkan.comp. create() reads the
// device's limits; prepare() plans the tile or the sort path
// (top_k_plan.hpp), makes the pipelines it records (per mode and element
// type) and reserves its ranks buffer; execute() records the dispatches,
// each with its own descriptor set (the sort path records one per step of
// its long stages). Offsets past 32 bits are UNSUPPORTED.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <new>
#include <span>

#include "common/kernel.hpp"
#include "common/vulkan_pipeline.hpp"
#include "top_k/top_k_plan.hpp"
#include "top_k_vulkan_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_top_k__vulkan;

namespace {

constexpr uint32_t kGroup = 256;            // invocations per workgroup, at most
constexpr uint32_t kSharedBytes = 32 * 1024;  // shared memory a workgroup's ranks may take

enum Mode : uint32_t { kTiles, kFill, kSortLocal, kSortStep, kIndexOrder, kEmit, kHalfValues };

struct PushConstants {
  uint32_t lines, n, inner, k;
  uint32_t k_log2, seg_log2, segs_log2, lane_fast;
  uint32_t part_len, line_len, flip, sorted;
  uint32_t from_ranks, groups;
  uint32_t line_log2, len_log2, block_log2, stage_log2;
  uint32_t j_log2;
};

struct TopKVulkan : KernelBase {
  const oprig_backend_context* ctx = nullptr;
  std::unique_ptr<VulkanPipelines> pipelines;
  uint32_t sets = 0;
  int module = -1;
  uint32_t group = 1, max_groups_x = 1;
  uint64_t capacity = 0;  // ranks a workgroup holds in shared memory
  top_k::Params params;
  bool prepared = false;
  top_k::Shape shape;
  top_k::Plan plan;
  VulkanScratch ranks;
};

uint32_t type_constant(oprig_dtype dtype) {
  return dtype == OPRIG_DTYPE_FLOAT_16 ? 1 : dtype == OPRIG_DTYPE_INT_32 ? 2 : 0;
}

// A pipelines object with at least `sets` descriptor sets (recorded dispatches).
oprig_status make_pipelines(TopKVulkan* k, uint32_t sets) {
  if (k->pipelines != nullptr && k->sets >= sets) return OPRIG_STATUS_OK;
  auto pipelines = std::make_unique<VulkanPipelines>();
  oprig_status st = pipelines->init(*k->ctx, 4, sizeof(PushConstants), sets);
  if (st != OPRIG_STATUS_OK) return st;
  const int module = pipelines->add_module(std::span(top_k_vulkan_spirv, top_k_vulkan_spirv_size));
  if (module < 0) return OPRIG_STATUS_BACKEND_ERROR;
  k->pipelines = std::move(pipelines);
  k->module = module;
  k->sets = sets;
  return OPRIG_STATUS_OK;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->vk_physical_device == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<top_k::Params> p = top_k::read_params(params, num_params);
  if (!p) return OPRIG_STATUS_INVALID_ARGUMENT;  // k is mandatory
  auto* k = new (std::nothrow) TopKVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_top_k__vulkan;
  k->ctx = ctx;
  k->params = *p;
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(static_cast<VkPhysicalDevice>(ctx->vk_physical_device), &properties);
  const VkPhysicalDeviceLimits& limits = properties.limits;
  k->group = std::bit_floor(std::min({kGroup, limits.maxComputeWorkGroupInvocations, limits.maxComputeWorkGroupSize[0]}));
  k->max_groups_x = limits.maxComputeWorkGroupCount[0];
  k->capacity = std::bit_floor(std::min(limits.maxComputeSharedMemorySize, kSharedBytes) / 8);
  const oprig_status st = k->capacity < 2 ? OPRIG_STATUS_UNSUPPORTED : make_pipelines(k, 3);
  if (st != OPRIG_STATUS_OK) {
    delete k;
    return st;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

// The dispatches of one execute, in order: counted (cmd null: how many
// descriptor sets and which pipelines), or recorded.
class Recorder {
 public:
  Recorder(TopKVulkan& k, VkCommandBuffer cmd, std::span<const oprig_tensor> tensors)
      : k_(k), cmd_(cmd), tensors_(tensors) {}
  uint32_t dispatches() const { return set_; }

  // `work`: workgroups (modes 0, 2) or invocations (the 1-D modes) the
  // dispatch needs; the shader loops over what the dispatch lacks.
  oprig_status dispatch(Mode mode, const PushConstants& push, uint64_t work, uint32_t parts = 1) {
    // The modes with shared ranks size them for the largest plan: one
    // pipeline per mode and type (lavapipe compiles each for a while).
    const bool shared = mode == kTiles || mode == kSortLocal;
    const uint32_t constants[4] = {k_.group, type_constant(k_.shape.dtype), mode,
                                   shared ? static_cast<uint32_t>(k_.capacity) : 1u};
    VkPipeline pipeline = k_.pipelines->pipeline(k_.module, constants);
    if (pipeline == VK_NULL_HANDLE) return OPRIG_STATUS_BACKEND_ERROR;
    const uint32_t set = set_++;
    if (cmd_ == VK_NULL_HANDLE) return OPRIG_STATUS_OK;
    const uint64_t groups = shared ? work : (work + k_.group - 1) / k_.group;
    return k_.pipelines->record_groups(cmd_, pipeline, tensors_, &push, sizeof push,
                                       static_cast<uint32_t>(std::clamp<uint64_t>(groups, 1, k_.max_groups_x)),
                                       parts, 1, set);
  }

 private:
  TopKVulkan& k_;
  VkCommandBuffer cmd_;
  std::span<const oprig_tensor> tensors_;
  uint32_t set_ = 0;
};

PushConstants base_push(const TopKVulkan& k) {
  const top_k::Shape& s = k.shape;
  PushConstants push{};
  push.lines = static_cast<uint32_t>(s.lines());
  push.n = static_cast<uint32_t>(s.n);
  push.inner = static_cast<uint32_t>(s.inner);
  push.k = static_cast<uint32_t>(s.k);
  push.k_log2 = k.plan.k_log2;
  push.flip = k.params.largest ? 0 : ~0u;
  push.sorted = k.params.sorted ? 1 : 0;
  push.line_log2 = k.plan.line_log2;
  return push;
}

oprig_status record_tiles(const TopKVulkan& k, Recorder& r, const top_k::TilePass& t, bool from_ranks) {
  PushConstants push = base_push(k);
  push.seg_log2 = t.seg_log2;
  push.segs_log2 = t.segs_log2;
  push.lane_fast = t.lane_fast ? 1 : 0;
  push.part_len = t.part_len;
  push.line_len = t.line_len;
  push.from_ranks = from_ranks ? 1 : 0;
  push.groups = static_cast<uint32_t>(t.line_groups);
  return r.dispatch(kTiles, push, t.line_groups, t.parts);
}

// Sorts the first 1 << len_log2 ranks of every line, descending.
oprig_status record_sort(const TopKVulkan& k, Recorder& r, uint32_t len_log2) {
  const uint64_t lines = k.shape.lines();
  PushConstants push = base_push(k);
  push.len_log2 = len_log2;
  push.block_log2 = std::min(k.plan.block_log2, len_log2);
  const uint64_t blocks = lines << (len_log2 - push.block_log2);
  push.groups = static_cast<uint32_t>(blocks);
  push.stage_log2 = 0;
  oprig_status st = r.dispatch(kSortLocal, push, blocks);
  for (uint32_t stage = push.block_log2 + 1; stage <= len_log2 && st == OPRIG_STATUS_OK; ++stage) {
    push.stage_log2 = stage;
    for (uint32_t j = stage; j-- > push.block_log2 && st == OPRIG_STATUS_OK;) {
      push.j_log2 = j;
      st = r.dispatch(kSortStep, push, lines << (len_log2 - 1));
    }
    if (st == OPRIG_STATUS_OK) st = r.dispatch(kSortLocal, push, blocks);
  }
  return st;
}

oprig_status record_all(const TopKVulkan& k, Recorder& r) {
  const top_k::Shape& s = k.shape;
  const top_k::Plan& p = k.plan;
  oprig_status st;
  if (!p.sort_path) {
    st = record_tiles(k, r, p.tiles, false);
    if (st == OPRIG_STATUS_OK && p.tiles.parts > 1) st = record_tiles(k, r, p.merge, true);
  } else {
    st = r.dispatch(kFill, base_push(k), s.lines() << p.line_log2);
    if (st == OPRIG_STATUS_OK) st = record_sort(k, r, p.line_log2);
    if (st == OPRIG_STATUS_OK && !k.params.sorted) {
      st = r.dispatch(kIndexOrder, base_push(k), s.lines() << p.k_log2);
      if (st == OPRIG_STATUS_OK) st = record_sort(k, r, p.k_log2);
    }
    if (st == OPRIG_STATUS_OK) st = r.dispatch(kEmit, base_push(k), s.lines() * s.k);
  }
  if (st == OPRIG_STATUS_OK && s.dtype == OPRIG_DTYPE_FLOAT_16)
    st = r.dispatch(kHalfValues, base_push(k), (s.lines() * s.k + 1) / 2);
  return st;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<TopKVulkan>(handle);
  k->prepared = false;
  oprig_status st = top_k::plan_shape(k->params, inputs, num_inputs, outputs, num_outputs, &k->shape);
  if (st != OPRIG_STATUS_OK) return st;
  const top_k::Shape& s = k->shape;
  k->plan = top_k::plan_launches(s, k->capacity, k->group);
  const top_k::Plan& p = k->plan;
  uint64_t rank_count = 0;
  if (p.sort_path) rank_count = s.lines() << p.line_log2;
  else if (p.tiles.parts > 1) rank_count = s.lines() * p.tiles.parts * s.k;
  if (s.elements() > UINT32_MAX || rank_count > UINT32_MAX || rank_count * 8 > k->pipelines->max_range())
    return OPRIG_STATUS_UNSUPPORTED;
  if (rank_count > 0) {
    st = k->ranks.reserve(*k->ctx, rank_count * 8);
    if (st != OPRIG_STATUS_OK) return st;
  }
  // A dry run: as many descriptor sets as dispatches, and every pipeline made now.
  Recorder count(*k, VK_NULL_HANDLE, {});
  st = record_all(*k, count);
  if (st == OPRIG_STATUS_OK && count.dispatches() > k->sets) {
    st = make_pipelines(k, count.dispatches());
    if (st == OPRIG_STATUS_OK) {
      Recorder again(*k, VK_NULL_HANDLE, {});
      st = record_all(*k, again);
    }
  }
  if (st != OPRIG_STATUS_OK) return st;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (num_inputs != 1 || num_outputs != 2 || inputs == nullptr || outputs == nullptr || info == nullptr ||
      info->vk_command_buffer == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = from_handle<TopKVulkan>(handle);
  if (!k->prepared) return OPRIG_STATUS_INVALID_ARGUMENT;
  const top_k::Shape& s = k->shape;
  if (s.lines() == 0) return OPRIG_STATUS_OK;  // empty outputs
  const top_k::Plan& p = k->plan;
  const uint64_t rank_bytes = p.sort_path ? s.lines() * p.sort_bytes() : s.lines() * p.tiles.parts * s.k * 8;
  const bool has_ranks = p.sort_path || p.tiles.parts > 1;
  // Without a ranks buffer the indices stand in for its binding (never used as ranks).
  const oprig_tensor tensors[4] = {inputs[0], outputs[0], outputs[1],
                                   has_ranks ? k->ranks.tensor(rank_bytes) : outputs[1]};
  Recorder r(*k, static_cast<VkCommandBuffer>(info->vk_command_buffer), tensors);
  return record_all(*k, r);
}

void destroy(oprig_kernel* handle) { delete from_handle<TopKVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  *out = top_k::cost(from_handle<const TopKVulkan>(handle)->shape);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_top_k__vulkan = {"TopK", create, prepare, execute, destroy, cost};

}  // namespace oprig::opsuite
