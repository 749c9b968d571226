// MultiClassNms on the opencl backend: host side of opencl.cl (the
// algorithm is described there), FLOAT_32 and FLOAT_16. execute() enqueues
// the whole selection on the device without waiting: sort, suppression,
// merge, then one gather per output.
//
// Why resolve_shapes() counts on the host: the outputs' D (the largest
// num_detections) depends on every greedy decision, and the ABI asks for it
// before execute, from host copies of the inputs, with no command buffer to
// record into on vulkan (whose one queue is the host's to submit to). So
// resolve_shapes() repeats the selection on the host, counting only and
// stopping as soon as D is known (selection.hpp: one batch item reaching
// max_detections ends it, often after its first classes), and execute()
// makes every decision again on the device from the device's own copies of
// the inputs, which the ABI guarantees hold the same values. Running the
// device selection inside resolve_shapes() and keeping its result for
// execute() would skip the host's count, but would leave execute()'s device
// time without the selection and execute() depending on a hidden earlier
// call; here execute() stands alone, and host and device agree because both
// make the same integer and IEEE double decisions (the merge would write at
// most D rows even if they did not).
#include <CL/cl.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <string>

#include "common/kernel.hpp"
#include "common/opencl_program.hpp"
#include "multi_class_nms/selection.hpp"
#include "multi_class_nms_opencl_cl.h"

namespace oprig::opsuite {

extern const KernelOps oprig_multi_class_nms__opencl;

namespace {

namespace nms = multi_class_nms;

constexpr size_t kGroup = 256;        // work-items of the sort, suppression and merge groups, at most
constexpr size_t kSortBlock = 2048;   // keys a sort group orders in local memory, at most (16 KiB)

// One program per element type, the kernels of an instance made from it.
struct Kernels {
  cl_kernel sort = nullptr, suppress = nullptr, merge = nullptr, gather = nullptr;
  ~Kernels() {
    for (cl_kernel k : {sort, suppress, merge, gather})
      if (k != nullptr) clReleaseKernel(k);
  }
  oprig_status make(cl_context context, cl_device_id device, bool half) {
    if (sort != nullptr) return OPRIG_STATUS_OK;
    cl_program program = cached_program(context, device, multi_class_nms_opencl_source,
                                        multi_class_nms_opencl_source_size,
                                        half ? "-cl-std=CL1.2 -D NMS_HALF" : "-cl-std=CL1.2", "MultiClassNms");
    if (program == nullptr) return OPRIG_STATUS_BACKEND_ERROR;
    cl_int err = CL_SUCCESS;
    cl_kernel* slots[] = {&sort, &suppress, &merge, &gather};
    const char* names[] = {"nms_sort", "nms_suppress", "nms_merge", "nms_gather"};
    for (int i = 0; i < 4; ++i) {
      *slots[i] = clCreateKernel(program, names[i], &err);
      if (err != CL_SUCCESS) return OPRIG_STATUS_BACKEND_ERROR;
    }
    return OPRIG_STATUS_OK;
  }
};

struct NmsOpenCL : KernelBase {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue queue = nullptr;
  cl_ulong local_bytes = 0;
  size_t forced_group = 0;  // OPRIG_NMS_GROUP, see create()
  nms::Params p;
  nms::Geometry g;
  bool prepared = false;
  size_t depth = 0;  // of the last resolve_shapes(), for cost()
  Kernels f32, f16;
  // The plan of the last prepare.
  uint32_t segment = 1;  // keys per (batch item, class): a power of two >= n
  uint32_t slots = 1;    // selected detections a batch item can have: min(max_detections, classes x limit)
  size_t sort_group = 0, sort_block = 0, suppress_group = 0, merge_group = 0;
  ClScratch keys, candidates, kept, kept_count, kept_corners, class_scratch, selection;

  Kernels& kernels_for(oprig_dtype dtype) { return dtype == OPRIG_DTYPE_FLOAT_16 ? f16 : f32; }
};

size_t floor_pow2(size_t v) {
  size_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

oprig_status create(const oprig_backend_context* ctx, const oprig_param* params, size_t num_params,
                    oprig_kernel** out_kernel) {
  *out_kernel = nullptr;
  if (ctx->cl_context == nullptr || ctx->cl_device == nullptr || ctx->cl_queue == nullptr)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const std::optional<nms::Params> p = nms::read_params(params, num_params);
  if (!p) return OPRIG_STATUS_INVALID_ARGUMENT;
  auto* k = new (std::nothrow) NmsOpenCL;
  if (k == nullptr) return OPRIG_STATUS_OUT_OF_MEMORY;
  k->ops = &oprig_multi_class_nms__opencl;
  k->context = static_cast<cl_context>(ctx->cl_context);
  k->device = static_cast<cl_device_id>(ctx->cl_device);
  k->queue = static_cast<cl_command_queue>(ctx->cl_queue);
  k->p = *p;
  // Intersection over union needs IEEE double.
  if (!device_has_fp64(k->device) ||
      clGetDeviceInfo(k->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof k->local_bytes, &k->local_bytes, nullptr) !=
          CL_SUCCESS) {
    delete k;
    return OPRIG_STATUS_UNSUPPORTED;
  }
  // OPRIG_NMS_GROUP=32|64|... caps every work-group at that size and the
  // sort's local block at twice it (device_test.cpp: the same detections
  // whatever the grouping, and the sort's global steps on small inputs).
  if (const char* forced = std::getenv("OPRIG_NMS_GROUP"); forced != nullptr)
    k->forced_group = floor_pow2(std::max<size_t>(32, std::strtoul(forced, nullptr, 10)));
  const oprig_status st = k->f32.make(k->context, k->device, false);
  if (st != OPRIG_STATUS_OK) {
    delete k;
    return st;
  }
  *out_kernel = to_handle(k);
  return OPRIG_STATUS_OK;
}

// The largest power-of-two group size <= want the kernel allows (at least `least`, else 0).
size_t group_for(const NmsOpenCL& k, cl_kernel kernel, size_t want, size_t least) {
  if (k.forced_group != 0) want = std::min(want, k.forced_group);
  const size_t size = floor_pow2(std::min(want, max_work_group_size(kernel, k.device)));
  return size >= least ? size : 0;
}

oprig_status prepare(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                     size_t num_outputs) {
  auto* k = from_handle<NmsOpenCL>(handle);
  k->prepared = false;
  oprig_status st = nms::plan(k->p, inputs, num_inputs, outputs, num_outputs, true, &k->g);
  if (st != OPRIG_STATUS_OK) return st;
  const nms::Geometry& g = k->g;
  if ((st = k->kernels_for(g.dtype).make(k->context, k->device, g.dtype == OPRIG_DTYPE_FLOAT_16)) != OPRIG_STATUS_OK)
    return st;
  for (const nms::Geometry::Feature& f : g.features)
    if ((st = k->kernels_for(f.dtype).make(k->context, k->device, f.dtype == OPRIG_DTYPE_FLOAT_16)) != OPRIG_STATUS_OK)
      return st;
  // The kernels index within a task, a class list and a batch item's
  // selection with 32-bit integers.
  size_t segment = 1;
  while (segment < g.n) segment *= 2;
  const size_t slots = std::min(static_cast<size_t>(k->p.max_detections), std::max<size_t>(1, g.classes * g.limit));
  if (segment > (size_t{1} << 31) || g.classes * g.limit > UINT32_MAX / 8 || slots > UINT32_MAX / 4 ||
      g.batch > UINT32_MAX / 4)
    return OPRIG_STATUS_UNSUPPORTED;
  k->segment = static_cast<uint32_t>(segment);
  k->slots = static_cast<uint32_t>(slots);

  const Kernels& kernels = k->kernels_for(g.dtype);
  k->sort_group = group_for(*k, kernels.sort, kGroup, 1);
  k->sort_block = std::min(floor_pow2(static_cast<size_t>(k->local_bytes / 2 / sizeof(cl_ulong))), kSortBlock);
  if (k->forced_group != 0) k->sort_block = std::min(k->sort_block, 2 * k->forced_group);
  k->merge_group = group_for(*k, kernels.merge, kGroup, 1);
  // The suppression's local memory: per work-item 5 doubles, 2 words and a
  // bitmask row of group/32 words, and twice group/32 words.
  k->suppress_group = group_for(*k, kernels.suppress, kGroup, 32);
  auto suppress_bytes = [](size_t group) { return group * (5 * 8 + 2 * 4 + group / 8) + group / 4; };
  while (k->suppress_group > 32 && suppress_bytes(k->suppress_group) > k->local_bytes) k->suppress_group /= 2;
  if (k->sort_group == 0 || k->sort_block < 2 || k->merge_group == 0 || k->suppress_group < 32 ||
      suppress_bytes(k->suppress_group) > k->local_bytes)
    return OPRIG_STATUS_UNSUPPORTED;

  const size_t tasks = g.batch * g.classes;
  for (auto [scratch, bytes] :
       {std::pair{&k->keys, tasks * segment * 8}, std::pair{&k->candidates, tasks * 4},
        std::pair{&k->kept, tasks * g.limit * 8}, std::pair{&k->kept_count, tasks * 4},
        std::pair{&k->kept_corners, tasks * g.limit * 5 * 8}, std::pair{&k->class_scratch, g.batch * g.classes * 16},
        std::pair{&k->selection, (g.batch + g.batch * slots * 2) * 4}})
    if ((st = scratch->reserve(k->context, bytes)) != OPRIG_STATUS_OK) return st;
  k->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status resolve_shapes(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                            size_t num_outputs) {
  auto* k = from_handle<NmsOpenCL>(handle);
  if (!k->prepared || num_inputs != k->g.features.size() + 2 || num_outputs != num_inputs + 2)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  try {
    k->depth = static_cast<size_t>(nms::count_depth(k->p, k->g, inputs));
    nms::set_depth(outputs, num_outputs, static_cast<int64_t>(k->depth));
  } catch (const std::bad_alloc&) {
    return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  return OPRIG_STATUS_OK;
}

oprig_status execute(oprig_kernel* handle, const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                     size_t num_outputs, oprig_execute_info* info) {
  if (info == nullptr || inputs == nullptr || outputs == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  info->cl_first_event = nullptr;
  info->cl_last_event = nullptr;
  auto* k = from_handle<NmsOpenCL>(handle);
  const nms::Geometry& g = k->g;
  if (!k->prepared || num_inputs != g.features.size() + 2 || num_outputs != num_inputs + 2 || outputs[0].rank != 3 ||
      outputs[0].dims[1] < 0 || outputs[0].dims[1] > k->p.max_detections)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  if (g.batch == 0) return OPRIG_STATUS_OK;
  const auto depth = static_cast<cl_uint>(outputs[0].dims[1]);
  const cl_uint batch = static_cast<cl_uint>(g.batch), n = static_cast<cl_uint>(g.n),
                classes = static_cast<cl_uint>(g.classes), limit = static_cast<cl_uint>(g.limit);
  const cl_uint center_size = k->p.center_size ? 1u : 0u;
  const cl_int threshold_order = nms::threshold_order(k->p.score_threshold);
  const cl_double iou = k->p.iou_threshold;
  const cl_uint sort_block = static_cast<cl_uint>(k->sort_block);
  const cl_mem boxes = static_cast<cl_mem>(inputs[0].data), scores = static_cast<cl_mem>(inputs[1].data);
  const cl_mem keys = k->keys.get(), candidates = k->candidates.get(), kept = k->kept.get(),
               kept_count = k->kept_count.get(), kept_corners = k->kept_corners.get(),
               class_scratch = k->class_scratch.get(), selection = k->selection.get();
  // An empty output may come without a buffer; the kernels never touch it then.
  auto buffer = [&](const oprig_tensor& t) { return t.data != nullptr ? static_cast<cl_mem>(t.data) : selection; };
  const Kernels& kernels = k->kernels_for(g.dtype);
  ClEnqueue enqueue(k->queue);
  oprig_status st = OPRIG_STATUS_OK;
  const size_t tasks = g.batch * g.classes;
  if (tasks > 0) {
    if (g.n > 0 && (boxes == nullptr || scores == nullptr)) return OPRIG_STATUS_INVALID_ARGUMENT;
    const cl_mem scores_arg = scores != nullptr ? scores : selection, boxes_arg = boxes != nullptr ? boxes : selection;
    if (!set_kernel_args(kernels.sort, scores_arg, keys, candidates, n, classes, k->segment, threshold_order) ||
        !set_local_arg(kernels.sort, 7, k->sort_block * sizeof(cl_ulong)) ||
        clSetKernelArg(kernels.sort, 8, sizeof sort_block, &sort_block) != CL_SUCCESS)
      return OPRIG_STATUS_BACKEND_ERROR;
    const size_t sort_global = tasks * k->sort_group;
    if ((st = enqueue.kernel(kernels.sort, 1, &sort_global, &k->sort_group)) != OPRIG_STATUS_OK) return st;

    const size_t group = k->suppress_group, words = group / 32;
    if (!set_kernel_args(kernels.suppress, boxes_arg, keys, candidates, kept, kept_count, kept_corners, n, classes,
                         k->segment, limit, center_size, iou) ||
        !set_local_arg(kernels.suppress, 12, group * 5 * sizeof(cl_double)) ||
        !set_local_arg(kernels.suppress, 13, group * sizeof(cl_uint)) ||
        !set_local_arg(kernels.suppress, 14, group * sizeof(cl_uint)) ||
        !set_local_arg(kernels.suppress, 15, group * words * sizeof(cl_uint)) ||
        !set_local_arg(kernels.suppress, 16, words * sizeof(cl_uint)) ||
        !set_local_arg(kernels.suppress, 17, words * sizeof(cl_uint)))
      return OPRIG_STATUS_BACKEND_ERROR;
    const size_t suppress_global = tasks * group;
    if ((st = enqueue.kernel(kernels.suppress, 1, &suppress_global, &group)) != OPRIG_STATUS_OK) return st;
  }
  if (!set_kernel_args(kernels.merge, kept, kept_count, class_scratch, selection, buffer(outputs[2]),
                       static_cast<cl_mem>(outputs[3].data), batch, classes, limit, k->slots, depth))
    return OPRIG_STATUS_BACKEND_ERROR;
  const size_t merge_global = g.batch * k->merge_group;
  if ((st = enqueue.kernel(kernels.merge, 1, &merge_global, &k->merge_group)) != OPRIG_STATUS_OK) return st;

  // detection_boxes, detection_scores, then each detection_features.
  auto gather = [&](const Kernels& from, cl_mem source, const oprig_tensor& out, size_t row, cl_uint by_class) {
    const size_t elements = g.batch * depth * row;
    if (elements == 0) return OPRIG_STATUS_OK;
    if (source == nullptr || out.data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
    const cl_uint row32 = static_cast<cl_uint>(row);
    if (!set_kernel_args(from.gather, source, selection, static_cast<cl_mem>(out.data), batch, depth, row32, n, classes,
                         k->slots, by_class))
      return OPRIG_STATUS_BACKEND_ERROR;
    return enqueue.kernel(from.gather, 1, &elements);
  };
  if ((st = gather(kernels, boxes, outputs[0], 4, 0)) != OPRIG_STATUS_OK) return st;
  if ((st = gather(kernels, scores, outputs[1], 1, 1)) != OPRIG_STATUS_OK) return st;
  for (size_t f = 0; f < g.features.size(); ++f)
    if ((st = gather(k->kernels_for(g.features[f].dtype), static_cast<cl_mem>(inputs[2 + f].data), outputs[4 + f],
                     g.features[f].row, 0)) != OPRIG_STATUS_OK)
      return st;
  enqueue.finish(info);
  return OPRIG_STATUS_OK;
}

void destroy(oprig_kernel* handle) { delete from_handle<NmsOpenCL>(handle); }

oprig_status cost(const oprig_kernel* handle, oprig_cost* out) {
  const auto* k = from_handle<const NmsOpenCL>(handle);
  *out = nms::cost(k->g, k->depth);
  return OPRIG_STATUS_OK;
}

}  // namespace

const KernelOps oprig_multi_class_nms__opencl = {"MultiClassNms", create, prepare, execute, destroy, cost,
                                                  resolve_shapes};

}  // namespace oprig::opsuite
