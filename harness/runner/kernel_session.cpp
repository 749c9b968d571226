#include "runner/kernel_session.hpp"

#include <algorithm>
#include <mutex>

#include "core/dtype.hpp"
#include "package/loader.hpp"
#include "runner/suite.hpp"

namespace oprig::harness {

size_t HostTensor::element_count() const {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

namespace {

template <class T>
std::vector<std::byte> bytes_of(const std::vector<T>& values) {
  std::vector<std::byte> out(std::max<size_t>(1, values.size()) * sizeof(T));
  if (!values.empty()) std::memcpy(out.data(), values.data(), values.size() * sizeof(T));
  return out;
}

std::vector<std::byte> ints_as(const std::vector<int64_t>& values, oprig_dtype dtype) {
  std::vector<std::byte> out(std::max<size_t>(1, values.size()) * dtype_size(dtype));
  for (size_t i = 0; i < values.size(); ++i) {
    std::byte* p = out.data() + i * dtype_size(dtype);
    switch (dtype) {
      case OPRIG_DTYPE_INT_8: { const auto v = static_cast<int8_t>(values[i]); std::memcpy(p, &v, 1); break; }
      case OPRIG_DTYPE_UINT_8: case OPRIG_DTYPE_BOOL_8: { const auto v = static_cast<uint8_t>(values[i]); std::memcpy(p, &v, 1); break; }
      case OPRIG_DTYPE_INT_16: { const auto v = static_cast<int16_t>(values[i]); std::memcpy(p, &v, 2); break; }
      case OPRIG_DTYPE_UINT_16: { const auto v = static_cast<uint16_t>(values[i]); std::memcpy(p, &v, 2); break; }
      case OPRIG_DTYPE_INT_32: { const auto v = static_cast<int32_t>(values[i]); std::memcpy(p, &v, 4); break; }
      case OPRIG_DTYPE_UINT_32: { const auto v = static_cast<uint32_t>(values[i]); std::memcpy(p, &v, 4); break; }
      case OPRIG_DTYPE_INT_64: std::memcpy(p, &values[i], 8); break;
      case OPRIG_DTYPE_UINT_64: { const auto v = static_cast<uint64_t>(values[i]); std::memcpy(p, &v, 8); break; }
      default: throw std::invalid_argument("ParamList: not an integer dtype");
    }
  }
  return out;
}

std::string status_text(const char* what, oprig_status s) { return std::string(what) + " returned " + status_name(s); }

}  // namespace

ParamList& ParamList::add_float(const std::string& name, float value) {
  entries_.push_back({name, OPRIG_DTYPE_FLOAT_32, 1, bytes_of(std::vector<float>{value})});
  return *this;
}
ParamList& ParamList::add_int(const std::string& name, int64_t value, oprig_dtype dtype) {
  entries_.push_back({name, dtype, 1, ints_as({value}, dtype)});
  return *this;
}
ParamList& ParamList::add_ints(const std::string& name, const std::vector<int64_t>& values, oprig_dtype dtype) {
  entries_.push_back({name, dtype, static_cast<uint32_t>(values.size()), ints_as(values, dtype)});
  return *this;
}
ParamList& ParamList::add_floats(const std::string& name, const std::vector<float>& values) {
  entries_.push_back({name, OPRIG_DTYPE_FLOAT_32, static_cast<uint32_t>(values.size()), bytes_of(values)});
  return *this;
}
ParamList& ParamList::add_bool(const std::string& name, bool value) {
  entries_.push_back({name, OPRIG_DTYPE_BOOL_8, 1, ints_as({value ? 1 : 0}, OPRIG_DTYPE_BOOL_8)});
  return *this;
}
ParamList& ParamList::add_string(const std::string& name, const std::string& value) {
  std::vector<std::byte> bytes(value.size() + 1);
  std::memcpy(bytes.data(), value.data(), value.size());
  entries_.push_back({name, OPRIG_DTYPE_STRING, static_cast<uint32_t>(value.size()), std::move(bytes)});
  return *this;
}
std::vector<oprig_param> ParamList::view() const {
  std::vector<oprig_param> out;
  for (const Entry& e : entries_) out.push_back({e.name.c_str(), static_cast<uint32_t>(e.dtype), e.count, e.bytes.data()});
  return out;
}

KernelSession::KernelSession(Backend& backend, const oprig_implementation_v1& impl, const std::string& op,
                             const ParamList& params, std::vector<HostTensor> inputs,
                             std::vector<oprig_tensor> outputs)
    : backend_(backend), impl_(impl), params_(params.view()), inputs_(std::move(inputs)), out_desc_(std::move(outputs)) {
  start(op);
}

KernelSession::KernelSession(Backend& backend, const oprig_implementation_v1& impl, const std::string& op,
                             const oprig_param* params, size_t num_params, std::vector<HostTensor> inputs,
                             std::vector<oprig_tensor> outputs)
    : backend_(backend),
      impl_(impl),
      params_(params, params + num_params),
      inputs_(std::move(inputs)),
      out_desc_(std::move(outputs)) {
  start(op);
}

void KernelSession::start(const std::string& op) {
  create_status_ = impl_.create(&backend_.context(), op.c_str(), params_.data(), params_.size(), &kernel_);
  if (create_status_ != OPRIG_STATUS_OK) {
    error_ = status_text("create()", create_status_);
    return;
  }
  for (const HostTensor& t : inputs_) {
    oprig_tensor d{};
    if (t.present) {
      d.dtype = t.dtype;
      d.rank = static_cast<uint32_t>(t.shape.size());
      std::copy(t.shape.begin(), t.shape.end(), d.dims);
      d.scale = t.scale;
      d.zero_point = t.zero_point;
    }
    in_desc_.push_back(d);
  }
  prepare_status_ = impl_.prepare(kernel_, in_desc_.data(), in_desc_.size(), out_desc_.data(), out_desc_.size());
  if (prepare_status_ != OPRIG_STATUS_OK) {
    error_ = status_text("prepare()", prepare_status_);
    return;
  }
  resolve_status_ = OPRIG_STATUS_OK;
  const bool unknown = std::any_of(out_desc_.begin(), out_desc_.end(), [](const oprig_tensor& d) {
    return std::any_of(d.dims, d.dims + std::min<uint32_t>(d.rank, OPRIG_MAX_RANK), [](int64_t v) { return v < 0; });
  });
  if (unknown) {
    if (impl_.resolve_shapes == nullptr) {
      error_ = "prepare() left an output dimension unknown (-1) but the package has no resolve_shapes()";
      return;
    }
    std::vector<oprig_tensor> host_in = in_desc_;
    for (size_t k = 0; k < inputs_.size(); ++k)
      host_in[k].data = inputs_[k].present && !inputs_[k].bytes.empty() ? inputs_[k].bytes.data() : nullptr;
    resolve_status_ = impl_.resolve_shapes(kernel_, host_in.data(), host_in.size(), out_desc_.data(), out_desc_.size());
    if (resolve_status_ != OPRIG_STATUS_OK) {
      error_ = status_text("resolve_shapes()", resolve_status_);
      return;
    }
  }
  for (size_t k = 0; k < inputs_.size(); ++k) {
    in_buf_.push_back(nullptr);
    if (!inputs_[k].present) continue;
    in_buf_.back() = backend_.allocate(inputs_[k].bytes.size());
    backend_.write(*in_buf_.back(), inputs_[k].bytes);
    in_buf_.back()->bind(in_desc_[k]);
  }
  for (oprig_tensor& d : out_desc_) {
    size_t n = 1;
    for (uint32_t i = 0; i < d.rank; ++i) {
      if (d.dims[i] < 0) {
        error_ = "resolve_shapes() left an output dimension unknown";
        return;
      }
      n *= static_cast<size_t>(d.dims[i]);
    }
    out_buf_.push_back(backend_.allocate(n * dtype_size(static_cast<oprig_dtype>(d.dtype))));
    // Fault the pages in before anything is timed.
    std::vector<std::byte> zeros(out_buf_.back()->bytes());
    backend_.write(*out_buf_.back(), zeros);
    out_buf_.back()->bind(d);
  }
}

KernelSession::~KernelSession() {
  if (kernel_ != nullptr) impl_.destroy(kernel_);
}

oprig_status KernelSession::run(ExecTiming* timing) {
  ExecTiming local;
  return backend_.execute(impl_, kernel_, in_desc_, out_desc_, timing ? *timing : local);
}

HostTensor KernelSession::output(size_t k) const {
  const oprig_tensor& d = out_desc_.at(k);
  HostTensor t;
  t.dtype = static_cast<oprig_dtype>(d.dtype);
  t.shape.assign(d.dims, d.dims + d.rank);
  t.scale = d.scale;
  t.zero_point = d.zero_point;
  t.bytes.resize(out_buf_.at(k)->bytes());
  backend_.read(*out_buf_[k], t.bytes);
  return t;
}

void KernelSession::write_input(size_t k, std::span<const std::byte> bytes) {
  backend_.write(*in_buf_.at(k), bytes);
}

const oprig_implementation_v1* opsuite_implementation(oprig_backend_kind kind, std::string* why) {
  static std::mutex mutex;
  // Never unloaded: sessions kept in function statics (the microbenchmarks')
  // are destroyed at exit after this function's statics, and their kernels
  // must still find the package's code.
  static Package* package = nullptr;
  static std::string load_error;
  const std::lock_guard lock(mutex);
  if (package == nullptr && load_error.empty()) {
    try {
      package = Package::load(default_package_path()).release();
    } catch (const PackageError& e) {
      load_error = e.what();
    }
  }
  if (package == nullptr) {
    *why = load_error;
    return nullptr;
  }
  return package->implementation(kind, why);
}

}  // namespace oprig::harness
