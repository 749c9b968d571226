// MultiClassNms on the vulkan backend: host side of vulkan_sort.comp,
// vulkan_suppress.comp, vulkan_merge.comp and vulkan_gather.comp (the
// algorithm of opencl.cl; nms.glsl holds what they share), FLOAT_32 and
// FLOAT_16 (in 32-bit words), on devices with shaderFloat64. execute()
// records the whole selection: sort, suppression, merge, then one gather per
// output. resolve_shapes() counts on the host; opencl.cpp says why.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>

#include "common/kernel.hpp"
#include "common/vulkan_pipeline.hpp"
#include "multi_class_nms/selection.hpp"
#include "multi_class_nms_vulkan_gather_spv.h"
#include "multi_class_nms_vulkan_merge_spv.h"
#include "multi_class_nms_vulkan_sort_spv.h"
#include "multi_class_nms_vulkan_suppress_spv.h"

namespace oprig::opsuite {

extern const KernelOps oprig_multi_class_nms__vulkan;

namespace {

namespace nms = multi_class_nms;

constexpr uint32_t kGroup = 256;       // invocations of the sort, suppression and merge groups, at most
constexpr uint32_t kSortBlock = 2048;  // keys a sort group orders in shared memory, at most (16 KiB)

// The shaders' push constants, in their order.
struct SortPush {
  uint32_t n, classes, segment, tasks;
  int32_t threshold_order;
};
struct SuppressPush {
  double iou_threshold, half_ulp;
  uint32_t n, classes, segment, limit, tasks, center_size;
};
struct MergePush {
  uint32_t batch, classes, limit, slots, depth;
};
struct GatherPush {
  uint32_t batch, depth, row, n, classes, slots, by_class, total;
};

struct NmsVulkan : KernelBase {
  oprig_backend_context ctx{};
  nms::Params p;
  nms::Geometry g;
  bool prepared = false;
  size_t depth = 0;  // of the last resolve_shapes(), for cost()
  uint32_t forced_group = 0;  // OPRIG_NMS_GROUP, see create()
  uint32_t max_invocations = 0, max_groups_x = 0, max_groups_y = 0;
  VulkanPipelines sort, suppress, merge;
  std::unique_ptr<VulkanPipelines> gather;  // a descriptor set per gathered output: made in prepare()
  uint32_t gather_sets = 0;
  int sort_module = -1, suppress_module = -1, merge_module = -1, gather_module = -1;
  // The plan of the last prepare.
  VkPipeline sort_pipeline = VK_NULL_HANDLE, suppress_pipeline = VK_NULL_HANDLE, merge_pipeline = VK_NULL_HANDLE;
  uint32_t segment = 1, slots = 1;  // as in opencl.cpp
  SortPush sort_push{};
  SuppressPush suppress_push{};
  VulkanScratch keys, candidates, kept, kept_corners, class_scratch, selection;
  uint64_t keys_bytes = 0, candidates_bytes = 0, kept_bytes = 0, corners_bytes = 0, class_bytes = 0,
           selection_bytes = 0;
};

uint32_t floor_pow2(uint32_t v) {
  uint32_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

// Half the gap between t (>= 0) and the next double above it; 0 for t = 0
// (nms.glsl's nms_iou_above).
double half_ulp_above(double t) {
  if (t == 0) return 0;
  int exponent = 0;
  std::frexp(t, &exponent);  // t = m 2^exponent, m in [0.5, 1): the gap is 2^(exponent - 53)
  return std::ldexp(1.0, exponent - 54);
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->vk_device == nullptr || ctx->vk_physical_device == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<nms::Params> p = nms::read_params(params, num_params);
  if (!p) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) NmsVulkan;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_multi_class_nms__vulkan;
  k->ctx = *ctx;
  k->p = *p;
  oprig_status st = k->sort.init(*ctx, 3, sizeof(SortPush));
  if (st == OPRIG_STATUS_OK) st = k->suppress.init(*ctx, 5, sizeof(SuppressPush));
  if (st == OPRIG_STATUS_OK) st = k->merge.init(*ctx, 5, sizeof(MergePush));
  // Intersection over union needs IEEE double.
  if (st == OPRIG_STATUS_OK && !k->sort.has_float64()) st = OPRIG_STATUS_UNSUPPORTED;
  if (st == OPRIG_STATUS_OK) {
    k->sort_module = k->sort.add_module(std::span(multi_class_nms_vulkan_sort_spirv, multi_class_nms_vulkan_sort_spirv_size));
    k->suppress_module =
        k->suppress.add_module(std::span(multi_class_nms_vulkan_suppress_spirv, multi_class_nms_vulkan_suppress_spirv_size));
    k->merge_module = k->merge.add_module(std::span(multi_class_nms_vulkan_merge_spirv, multi_class_nms_vulkan_merge_spirv_size));
    if (k->sort_module < 0 || k->suppress_module < 0 || k->merge_module < 0) st = OPRIG_STATUS_BACKEND_ERROR;
  }
  if (st != OPRIG_STATUS_OK) {
    delete k;
    return st;
  }
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(static_cast<VkPhysicalDevice>(ctx->vk_physical_device), &properties);
  k->max_invocations =
      std::min(properties.limits.maxComputeWorkGroupInvocations, properties.limits.maxComputeWorkGroupSize[0]);
  k->max_groups_x = properties.limits.maxComputeWorkGroupCount[0];
  k->max_groups_y = properties.limits.maxComputeWorkGroupCount[1];
  // As on opencl: OPRIG_NMS_GROUP caps the groups and the sort's block (device_test.cpp).
  if (const char* forced = std::getenv("OPRIG_NMS_GROUP"); forced != nullptr)
    k->forced_group = floor_pow2(std::max<uint32_t>(32, static_cast<uint32_t>(std::strtoul(forced, nullptr, 10))));
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<NmsVulkan>(handle);
  k->prepared = false;
  oprig_status st = nms::plan(k->p, inputs, num_inputs, outputs, num_outputs, true, &k->g);
  if (st != OPRIG_STATUS_OK) return st;
  const nms::Geometry& g = k->g;
  // The shaders index with 32-bit integers.
  uint64_t segment = 1;
  while (segment < g.n) segment *= 2;
  const uint64_t tasks = g.batch * g.classes;
  const uint64_t slots = std::min<uint64_t>(static_cast<uint64_t>(k->p.max_detections),
                                            std::max<uint64_t>(1, g.classes * g.limit));
  uint64_t largest = std::max({tasks * segment, tasks * g.limit * 5 + tasks, g.batch * g.n * std::max<size_t>(4, g.classes),
                               g.batch * (1 + 2 * slots), tasks * 4});
  for (const nms::Geometry::Feature& f : g.features) largest = std::max<uint64_t>(largest, g.batch * g.n * f.row);
  if (largest > UINT32_MAX) return OPRIG_STATUS_UNSUPPORTED;
  k->segment = static_cast<uint32_t>(segment);
  k->slots = static_cast<uint32_t>(slots);

  // Group size and sort block from the device's limits.
  uint32_t group = floor_pow2(std::min(kGroup, k->max_invocations));
  if (k->forced_group != 0) group = std::min(group, k->forced_group);
  const uint64_t shared = k->sort.max_shared_bytes();
  auto suppress_bytes = [](uint64_t n) { return n * (5 * 8 + 2 * 4 + n / 8) + n / 4 + 4; };
  while (group > 32 && suppress_bytes(group) > shared) group /= 2;
  uint32_t block = std::min<uint32_t>(kSortBlock, floor_pow2(static_cast<uint32_t>(std::max<uint64_t>(shared, 16) / 8 - 1)));
  if (k->forced_group != 0) block = std::min(block, 2 * k->forced_group);
  if (group < 32 || suppress_bytes(group) > shared || block < 2) return OPRIG_STATUS_UNSUPPORTED;
  const uint32_t half = g.dtype == OPRIG_DTYPE_FLOAT_16 ? 1u : 0u;
  const uint32_t sort_constants[] = {group, half, block}, suppress_constants[] = {group, half}, merge_constants[] = {group};
  k->sort_pipeline = k->sort.pipeline(k->sort_module, sort_constants);
  k->suppress_pipeline = k->suppress.pipeline(k->suppress_module, suppress_constants);
  k->merge_pipeline = k->merge.pipeline(k->merge_module, merge_constants);
  if (k->sort_pipeline == VK_NULL_HANDLE || k->suppress_pipeline == VK_NULL_HANDLE || k->merge_pipeline == VK_NULL_HANDLE)
    return OPRIG_STATUS_BACKEND_ERROR;

  // detection_boxes, detection_scores and each detection_features: a set each.
  const auto sets = static_cast<uint32_t>(2 + g.features.size());
  if (k->gather == nullptr || k->gather_sets < sets) {
    k->gather.reset(new (std::nothrow) VulkanPipelines);
    if (k->gather == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
    if ((st = k->gather->init(k->ctx, 3, sizeof(GatherPush), sets)) != OPRIG_STATUS_OK) return st;
    k->gather_module =
        k->gather->add_module(std::span(multi_class_nms_vulkan_gather_spirv, multi_class_nms_vulkan_gather_spirv_size));
    if (k->gather_module < 0) return OPRIG_STATUS_BACKEND_ERROR;
    k->gather_sets = sets;
  }

  k->sort_push = {static_cast<uint32_t>(g.n), static_cast<uint32_t>(g.classes), k->segment,
                  static_cast<uint32_t>(tasks), nms::threshold_order(k->p.score_threshold)};
  const double t = k->p.iou_threshold;
  k->suppress_push = {t,
                      half_ulp_above(t),
                      static_cast<uint32_t>(g.n),
                      static_cast<uint32_t>(g.classes),
                      k->segment,
                      static_cast<uint32_t>(g.limit),
                      static_cast<uint32_t>(tasks),
                      k->p.center_size ? 1u : 0u};
  k->keys_bytes = tasks * segment * 8;
  k->candidates_bytes = tasks * 4;
  k->kept_bytes = (tasks * g.limit * 2 + tasks) * 4;
  k->corners_bytes = tasks * g.limit * 5 * 8;
  k->class_bytes = g.batch * g.classes * 16;
  k->selection_bytes = (g.batch + g.batch * slots * 2) * 4;
  for (auto [scratch, bytes] : {std::pair{&k->keys, k->keys_bytes}, std::pair{&k->candidates, k->candidates_bytes},
                                std::pair{&k->kept, k->kept_bytes}, std::pair{&k->kept_corners, k->corners_bytes},
                                std::pair{&k->class_scratch, k->class_bytes},
                                std::pair{&k->selection, k->selection_bytes}})
    if ((st = scratch->reserve(k->ctx, bytes)) != OPRIG_STATUS_OK) return st;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status resolve_shapes(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                            size_t num_outputs) {
  auto* k = from_handle<NmsVulkan>(handle);
  if (!k->prepared || num_inputs != k->g.features.size() + 2 || num_outputs != num_inputs + 2)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  try {
    k->depth = static_cast<size_t>(nms::count_depth(k->p, k->g, inputs));
  } catch (const std::bad_alloc&) {
    return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  nms::set_depth(outputs, num_outputs, static_cast<int64_t>(k->depth));
  return OPRIG_STATUS_OK;
}

// `count` workgroups as a 2-D grid within the device's limits (the shaders
// number them y * width + x and let the surplus return).
bool grid_of(const NmsVulkan& k, uint64_t count, uint32_t* x, uint32_t* y) {
  *x = static_cast<uint32_t>(std::min<uint64_t>(count, k.max_groups_x));
  *y = *x == 0 ? 0 : static_cast<uint32_t>((count + *x - 1) / *x);
  return *y <= k.max_groups_y;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  auto* k = from_handle<NmsVulkan>(handle);
  const nms::Geometry& g = k->g;
  if (info == nullptr || info->vk_command_buffer == nullptr || inputs == nullptr || outputs == nullptr ||
      !k->prepared || num_inputs != g.features.size() + 2 || num_outputs != num_inputs + 2 || outputs[0].rank != 3 ||
      outputs[0].dims[1] < 0 || outputs[0].dims[1] > k->p.max_detections)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (g.batch == 0) return OPRIG_STATUS_OK;
  auto cmd = static_cast<VkCommandBuffer>(info->vk_command_buffer);
  const auto depth = static_cast<uint32_t>(outputs[0].dims[1]);
  const oprig_tensor keys = k->keys.tensor(k->keys_bytes), candidates = k->candidates.tensor(k->candidates_bytes),
                     kept = k->kept.tensor(k->kept_bytes), kept_corners = k->kept_corners.tensor(k->corners_bytes),
                     class_scratch = k->class_scratch.tensor(k->class_bytes),
                     selection = k->selection.tensor(k->selection_bytes);
  // An empty tensor may come without a buffer; the shaders never touch it then.
  auto bound = [&](const oprig_tensor& t) { return t.data != nullptr ? t : selection; };
  oprig_status st = OPRIG_STATUS_OK;
  uint32_t x = 0, y = 0;
  const uint64_t tasks = g.batch * g.classes;
  if (tasks > 0) {
    if (!grid_of(*k, tasks, &x, &y)) return OPRIG_STATUS_UNSUPPORTED;
    const oprig_tensor sort_tensors[] = {bound(inputs[1]), keys, candidates};
    st = k->sort.record_groups(cmd, k->sort_pipeline, sort_tensors, &k->sort_push, sizeof k->sort_push, x, y);
    if (st != OPRIG_STATUS_OK) return st;
    const oprig_tensor suppress_tensors[] = {bound(inputs[0]), keys, candidates, kept, kept_corners};
    st = k->suppress.record_groups(cmd, k->suppress_pipeline, suppress_tensors, &k->suppress_push,
                                   sizeof k->suppress_push, x, y);
    if (st != OPRIG_STATUS_OK) return st;
  }
  if (!grid_of(*k, g.batch, &x, &y)) return OPRIG_STATUS_UNSUPPORTED;
  const MergePush merge_push{static_cast<uint32_t>(g.batch), static_cast<uint32_t>(g.classes),
                             static_cast<uint32_t>(g.limit), k->slots, depth};
  const oprig_tensor merge_tensors[] = {kept, class_scratch, selection, bound(outputs[2]), outputs[3]};
  st = k->merge.record_groups(cmd, k->merge_pipeline, merge_tensors, &merge_push, sizeof merge_push, x, y);
  if (st != OPRIG_STATUS_OK) return st;

  // detection_boxes, detection_scores, then each detection_features.
  uint32_t set = 0;
  auto gather = [&](const oprig_tensor& source, const oprig_tensor& out, size_t row, uint32_t by_class,
                    oprig_dtype dtype) {
    const uint64_t elements = g.batch * depth * row;
    const uint32_t this_set = set++;
    if (elements == 0) return OPRIG_STATUS_OK;
    if (source.data == nullptr || out.data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
    const uint32_t half = dtype == OPRIG_DTYPE_FLOAT_16 ? 1u : 0u;
    const GatherPush push{static_cast<uint32_t>(g.batch), depth, static_cast<uint32_t>(row), static_cast<uint32_t>(g.n),
                          static_cast<uint32_t>(g.classes), k->slots, by_class, static_cast<uint32_t>(elements)};
    const oprig_tensor tensors[] = {source, selection, out};
    return k->gather->record(cmd, k->gather->pipeline(k->gather_module, half), tensors, &push, sizeof push,
                             half != 0 ? (elements + 1) / 2 : elements, this_set);
  };
  if ((st = gather(inputs[0], outputs[0], 4, 0, g.dtype)) != OPRIG_STATUS_OK) return st;
  if ((st = gather(inputs[1], outputs[1], 1, 1, g.dtype)) != OPRIG_STATUS_OK) return st;
  for (size_t f = 0; f < g.features.size(); ++f)
    if ((st = gather(inputs[2 + f], outputs[4 + f], g.features[f].row, 0, g.features[f].dtype)) != OPRIG_STATUS_OK)
      return st;
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<NmsVulkan>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const NmsVulkan>(handle);
  *out = nms::cost(k->g, k->depth);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_multi_class_nms__vulkan = {"MultiClassNms", create, prepare, execute, destroy, cost,
                                                  resolve_shapes};

}  // namespace oprig::opsuite
