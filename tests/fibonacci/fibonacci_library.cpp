#include "fibonacci_library.hpp"

#include <dlfcn.h>

#include <cstring>
#include <limits>

namespace oprig::test {

FibonacciLibrary::FibonacciLibrary() {
  handle_ = dlopen(OPRIG_FIBONACCI_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    error_ = dlerror();
    return;
  }
  package_query_ = reinterpret_cast<oprig_package_query_fn>(dlsym(handle_, OPRIG_PACKAGE_QUERY_SYMBOL));
  implementation_query_ =
      reinterpret_cast<oprig_implementation_query_fn>(dlsym(handle_, OPRIG_IMPLEMENTATION_QUERY_SYMBOL));
  if (package_query_ == nullptr || implementation_query_ == nullptr) error_ = "missing entry point";
}

FibonacciLibrary::~FibonacciLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

const oprig_implementation_v1* FibonacciLibrary::cpu() const {
  return implementation_query_ != nullptr ? implementation_query_(OPRIG_BACKEND_CPU, OPRIG_ABI_VERSION) : nullptr;
}

oprig_backend_context cpu_context() {
  oprig_backend_context ctx{};
  ctx.struct_size = sizeof ctx;
  ctx.kind = OPRIG_BACKEND_CPU;
  ctx.cpu_threads = 1;
  return ctx;
}

FibonacciRun run_fibonacci(const oprig_implementation_v1& impl, float n, oprig_dtype dtype, float scale,
                           int32_t zero_point) {
  FibonacciRun run;
  auto fail = [&run](const char* call, oprig_status status) {
    run.failed_call = call;
    run.status = status;
    return run;
  };
  const oprig_backend_context ctx = cpu_context();
  oprig_kernel* kernel = nullptr;
  if (oprig_status s = impl.create(&ctx, "Fibonacci", nullptr, 0, &kernel); s != OPRIG_STATUS_OK)
    return fail("create", s);

  oprig_tensor in{}, out{};
  in.dtype = OPRIG_DTYPE_FLOAT_32;
  in.rank = 1;
  in.dims[0] = 1;
  out.dtype = dtype;
  out.scale = scale;
  out.zero_point = zero_point;
  oprig_status s = impl.prepare(kernel, &in, 1, &out, 1);
  run.prepared_length = out.dims[0];
  if (s == OPRIG_STATUS_OK) {
    float host_copy = n;  // resolve_shapes gets a host copy of every input
    in.data = &host_copy;
    in.bytes = sizeof host_copy;
    s = impl.resolve_shapes(kernel, &in, 1, &out, 1);
    run.resolved_length = out.dims[0];
    if (s != OPRIG_STATUS_OK) {
      impl.destroy(kernel);
      return fail("resolve_shapes", s);
    }
    // Pre-poisoned outputs: an element the kernel does not write shows up.
    const auto length = static_cast<size_t>(out.dims[0]);
    float device_n = n;
    in.data = &device_n;
    if (dtype == OPRIG_DTYPE_FLOAT_32) {
      run.f32.assign(length, std::numeric_limits<float>::quiet_NaN());
      out.data = run.f32.empty() ? nullptr : run.f32.data();
      out.bytes = length * sizeof(float);
    } else {
      run.u64.assign(length, 0xDEADBEEFDEADBEEFull);
      out.data = run.u64.empty() ? nullptr : run.u64.data();
      out.bytes = length * sizeof(uint64_t);
    }
    oprig_execute_info info{};
    info.struct_size = sizeof info;
    s = impl.execute(kernel, &in, 1, &out, 1, &info);
    if (s != OPRIG_STATUS_OK) {
      impl.destroy(kernel);
      return fail("execute", s);
    }
  } else {
    impl.destroy(kernel);
    return fail("prepare", s);
  }
  impl.destroy(kernel);
  return run;
}

}  // namespace oprig::test
