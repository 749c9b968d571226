// Time model of host <-> DSP copies (cost_model.md, "Transfers"). The copy
// itself is a host memcpy into the simulated device memory; the time reported
// is what this model says a DMA over the shared-memory fabric would take,
// never the memcpy's host wall time.
#pragma once

#include <cstddef>

namespace oprig::dsp {

inline constexpr double kDmaSetupNs = 1000.0;     // descriptor set-up and completion
inline constexpr double kDmaBytesPerNs = 8.0;     // 8 GB/s sustained

inline double dma_time_ns(size_t bytes) {
  return kDmaSetupNs + static_cast<double>(bytes) / kDmaBytesPerNs;
}

}  // namespace oprig::dsp
