// oneDNN as the peer of a cpu benchmark: one forward-inference primitive
// from one NHWC fp32 tensor to another, on buffers oneDNN allocates (64-byte
// aligned: its kernels may use aligned non-temporal stores, which fault on a
// plain std::vector), the input copied in and the output's pages faulted in
// before timing. Used by Pool2D's and Resize's bench.cpp (pooling,
// resampling), which built and ran it alike. Header-only: only benchmarks
// that link oneDNN include it.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <functional>
#include <vector>

namespace oprig::bench {

struct OneDnnNhwcPeer {
  using Make = std::function<dnnl::primitive(const dnnl::engine&, const dnnl::memory::desc& src,
                                             const dnnl::memory::desc& dst)>;

  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::primitive primitive;
  dnnl::memory src, dst;

  // Shapes in oneDNN's order, {N, C, H, W}; the layout is NHWC.
  OneDnnNhwcPeer(const dnnl::memory::dims& src_nchw, const dnnl::memory::dims& dst_nchw,
                 const std::vector<float>& input, const Make& make) {
    using tag = dnnl::memory::format_tag;
    using dt = dnnl::memory::data_type;
    const dnnl::memory::desc src_md(src_nchw, dt::f32, tag::nhwc);
    const dnnl::memory::desc dst_md(dst_nchw, dt::f32, tag::nhwc);
    primitive = make(engine, src_md, dst_md);
    src = dnnl::memory(src_md, engine);
    dst = dnnl::memory(dst_md, engine);
    std::copy(input.begin(), input.end(), static_cast<float*>(src.get_data_handle()));
    std::fill_n(static_cast<float*>(dst.get_data_handle()), dst_md.get_size() / sizeof(float), 0.0f);
  }

  void run() {
    primitive.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    stream.wait();
  }
};

}  // namespace oprig::bench
