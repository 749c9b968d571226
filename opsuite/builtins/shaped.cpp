// Slice and FullyConnected: the checks and geometry of prepare() every
// backend shares, and Slice's resolve_shapes(). The rules are the runtime's
// host kernels' (runtime/graph/kernels_data.cpp, kernels_fully_connected.cpp):
// what they refuse at execution, these refuse as INVALID_ARGUMENT.
#include <algorithm>
#include <cstring>

#include "node.hpp"

namespace oprig::builtins {
namespace {

size_t elements(const oprig_tensor& t) {
  size_t n = 1;
  for (uint32_t d = 0; d < t.rank; ++d) n *= static_cast<size_t>(t.dims[d]);
  return n;
}

bool is_quant8(const oprig_tensor& t) {
  return (t.dtype == OPRIG_DTYPE_UINT_8 || t.dtype == OPRIG_DTYPE_INT_8) && t.scale > 0;
}

}  // namespace

oprig_status plan_slice(Node* node, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                        size_t num_outputs) {
  node->slice.resolved = false;
  if (inputs == nullptr || outputs == nullptr || num_inputs != 3 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor &in = inputs[0], &begin = inputs[1], &size = inputs[2];
  oprig_tensor& y = outputs[0];
  const uint32_t bytes = slice_element_bytes(in.dtype);
  if (bytes == 0) return OPRIG_STATUS_UNSUPPORTED;
  if (y.dtype != in.dtype || y.scale != in.scale || (in.scale != 0 && y.zero_point != in.zero_point))
    return OPRIG_STATUS_INVALID_ARGUMENT;  // the output keeps the input's type and quantisation
  if (begin.dtype != OPRIG_DTYPE_INT_32 || size.dtype != OPRIG_DTYPE_INT_32 || begin.scale != 0 || size.scale != 0)
    return OPRIG_STATUS_UNSUPPORTED;
  // Their lengths are checked against the input's rank with the real shapes
  // (resolve_shapes): an input of unknown rank may be probed with any.
  if (begin.rank != 1 || size.rank != 1 || in.rank < 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  node->in_dtype = node->out_dtype = in.dtype;
  node->slice.rank = in.rank;
  node->slice.element_bytes = bytes;
  std::copy(in.dims, in.dims + OPRIG_MAX_RANK, node->slice.in_dims);
  y.rank = in.rank;
  for (uint32_t d = 0; d < OPRIG_MAX_RANK; ++d) y.dims[d] = d < in.rank ? -1 : 0;  // the values decide
  node->prepared = true;
  return OPRIG_STATUS_OK;
}

oprig_status resolve_slice(Node* node, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                           size_t num_outputs) {
  node->slice.resolved = false;
  if (!node->prepared || inputs == nullptr || outputs == nullptr || num_inputs != 3 || num_outputs != 1)
    return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor &begin = inputs[1], &size = inputs[2];
  const uint32_t rank = node->slice.rank;
  if (begin.data == nullptr || size.data == nullptr) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (begin.dims[0] != rank || size.dims[0] != rank) return OPRIG_STATUS_INVALID_ARGUMENT;
  const auto* b = static_cast<const int32_t*>(begin.data);
  const auto* s = static_cast<const int32_t*>(size.data);
  oprig_tensor& y = outputs[0];
  y.rank = rank;
  for (uint32_t d = 0; d < rank; ++d) {
    const int64_t dim = node->slice.in_dims[d], from = b[d], n = s[d] == -1 ? dim - from : s[d];
    if (from < 0 || from > dim || n < 0 || from + n > dim) return OPRIG_STATUS_INVALID_ARGUMENT;
    node->slice.begin[d] = from;
    node->slice.out_dims[d] = n;
    y.dims[d] = n;
  }
  node->count = 1;
  for (uint32_t d = 0; d < rank; ++d) node->count *= static_cast<size_t>(node->slice.out_dims[d]);
  node->slice.resolved = true;
  return OPRIG_STATUS_OK;
}

oprig_status plan_fully_connected(Node* node, const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                                  size_t num_outputs) {
  if (inputs == nullptr || outputs == nullptr || num_inputs != 3 || num_outputs != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const oprig_tensor &x = inputs[0], &w = inputs[1], &b = inputs[2];
  oprig_tensor& y = outputs[0];
  const bool floating = x.dtype == OPRIG_DTYPE_FLOAT_32 || x.dtype == OPRIG_DTYPE_FLOAT_16;
  node->quantised = is_quant8(x);
  if (floating) {
    if (x.scale != 0 || w.dtype != x.dtype || b.dtype != x.dtype || w.scale != 0 || b.scale != 0) return OPRIG_STATUS_UNSUPPORTED;
  } else if (node->quantised) {
    if (w.dtype != x.dtype || !(w.scale > 0) || b.dtype != OPRIG_DTYPE_INT_32) return OPRIG_STATUS_UNSUPPORTED;
    if (y.dtype != x.dtype || !(y.scale > 0)) return OPRIG_STATUS_INVALID_ARGUMENT;
  } else {
    return OPRIG_STATUS_UNSUPPORTED;
  }
  if (y.dtype != x.dtype) return OPRIG_STATUS_INVALID_ARGUMENT;
  if (x.rank < 2 || x.rank > 4 || w.rank != 2 || b.rank != 1) return OPRIG_STATUS_INVALID_ARGUMENT;
  const int64_t units = w.dims[0], depth = w.dims[1];
  const auto count = static_cast<int64_t>(elements(x));
  if (depth == 0 || units == 0 || count % depth != 0 || b.dims[0] != units) return OPRIG_STATUS_INVALID_ARGUMENT;
  node->fc.batch = count / depth;
  node->fc.units = units;
  node->fc.depth = depth;
  if (node->quantised) {
    node->fc.x_offset = -x.zero_point;
    node->fc.w_offset = -w.zero_point;
    node->fc.out_offset = y.zero_point;
    if (!quant::multiplier(static_cast<double>(x.scale) * w.scale / y.scale, &node->fc.multiplier))
      return OPRIG_STATUS_UNSUPPORTED;  // the host refuses these scales too
    node->fc.range = quant::activation_range(node->activation, y.scale, y.zero_point,
                                             quant::type_range(x.dtype == OPRIG_DTYPE_INT_8));
  }
  node->in_dtype = node->out_dtype = x.dtype;
  node->count = static_cast<size_t>(node->fc.batch * units);
  y.rank = 2;
  std::fill(y.dims, y.dims + OPRIG_MAX_RANK, 0);
  y.dims[0] = node->fc.batch;
  y.dims[1] = units;
  node->prepared = true;
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::builtins
