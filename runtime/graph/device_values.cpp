// Residency of operand values in device memory (opencl, vulkan): uploads and
// downloads at placement boundaries only, device buffers per frame operand
// and per loop slot, and the enqueue of a device kernel on the execution's
// DeviceStream. Every transfer is counted in Exec::transfers.
#include <algorithm>
#include <exception>

#include "graph/runtime_types.hpp"
#include "graph/shape_rules.hpp"
#include "package/loader.hpp"

namespace oprig::graph {
namespace {

std::vector<int64_t> dims_of(const oprig_tensor& t) { return std::vector<int64_t>(t.dims, t.dims + t.rank); }

// NumPy's broadcast of two shapes, or nullopt.
std::optional<std::vector<int64_t>> numpy_broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> out(std::max(a.size(), b.size()));
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[out.size() - 1 - i] = da == 1 ? db : da;
  }
  return out;
}

void make_scalar(oprig_tensor& t) {
  t.rank = 0;
  std::fill(std::begin(t.dims), std::end(t.dims), 0);
}

}  // namespace

void adapt_one_element(oprig_tensor& a, oprig_tensor& b) {
  const std::vector<int64_t> da = dims_of(a), db = dims_of(b);
  const std::optional<std::vector<int64_t>> builtin = shape_rules::broadcast(da, db);
  if (!builtin || numpy_broadcast(da, db) == builtin) return;
  if (shape_rules::element_count(db) == 1) make_scalar(b);
  else if (shape_rules::element_count(da) == 1) make_scalar(a);
}

DeviceStream& stream_of(Exec& x) {
  if (!x.state.stream) x.state.stream = x.impl.backends.target->open_stream();
  return *x.state.stream;
}

DeviceBuffer* sized_buffer(Exec& x, std::unique_ptr<DeviceBuffer>& owner, size_t bytes) {
  const size_t want = std::max<size_t>(bytes, 1);
  if (owner && owner->bytes() == want) return owner.get();
  if (owner) x.state.retired.push_back(std::move(owner));
  owner = x.impl.backends.target->allocate(want);
  return owner.get();
}

DeviceBuffer* frame_buffer(Exec& x, Frame& f, uint32_t k, size_t bytes) { return sized_buffer(x, f.device[k], bytes); }

void release_retired(Exec& x) { x.state.retired.clear(); }

bool to_host(Exec& x, Value& v) {
  if (v.on_host || !v.present) return true;
  try {
    if (v.bytes) stream_of(x).read(*v.device, std::span<std::byte>(v.data, v.bytes));
  } catch (const std::exception& e) {
    x.error = std::string("reading a value back from ") + x.impl.target_name + ": " + e.what();
    return false;
  }
  ++x.transfers.downloads;
  x.transfers.download_bytes += v.bytes;
  v.on_host = true;
  release_retired(x);  // the read waited for every earlier piece of device work
  return true;
}

bool to_device(Exec& x, Value& v, std::unique_ptr<DeviceBuffer>& owner) {
  if (v.on_device || !v.present) return true;
  try {
    DeviceBuffer* buffer = sized_buffer(x, owner, v.bytes);
    if (v.bytes) stream_of(x).write(*buffer, std::span<const std::byte>(v.data, v.bytes));
    v.device = buffer;
  } catch (const std::exception& e) {
    x.error = std::string("uploading a value to ") + x.impl.target_name + ": " + e.what();
    return false;
  }
  ++x.transfers.uploads;
  x.transfers.upload_bytes += v.bytes;
  v.on_device = true;
  release_retired(x);
  return true;
}

oprig_status device_enqueue(Exec& x, Frame& f, const Step& s, KernelInstance& ki) {
  const PackageNode& node = x.impl.nodes[s.kernel_node];
  const Operation& op = *node.op;
  for (size_t j = 0; j < node.inputs.size(); ++j) {
    Value& v = f.values[node.inputs[j]];
    oprig_tensor& t = ki.in_desc[j];
    if (!v.present) continue;
    if (!to_device(x, v, f.device[node.inputs[j]])) return OPRIG_STATUS_BACKEND_ERROR;
    v.device->bind(t);  // data, offset and bytes; rank and dims stay
    t.bytes = v.bytes;
  }
  std::vector<DeviceBuffer*> outputs(op.outputs.size());
  try {
    for (size_t j = 0; j < op.outputs.size(); ++j) {
      const Value& y = f.values[op.outputs[j]];
      outputs[j] = frame_buffer(x, f, op.outputs[j], y.bytes);
      outputs[j]->bind(ki.out_desc[j]);
      ki.out_desc[j].bytes = y.bytes;
    }
  } catch (const std::exception& e) {
    x.error = std::string("allocating device memory on ") + x.impl.target_name + ": " + e.what();
    return OPRIG_STATUS_OUT_OF_MEMORY;
  }
  oprig_status st;
  try {
    st = stream_of(x).enqueue(*ki.impl, ki.kernel, ki.in_desc, ki.out_desc);
  } catch (const std::exception& e) {
    x.error = e.what();
    return OPRIG_STATUS_BACKEND_ERROR;
  }
  if (st != OPRIG_STATUS_OK) return st;
  for (size_t j = 0; j < op.outputs.size(); ++j) {
    Value& y = f.values[op.outputs[j]];
    y.device = outputs[j];
    y.on_device = true;
    y.on_host = false;
  }
  return OPRIG_STATUS_OK;
}

}  // namespace oprig::graph
