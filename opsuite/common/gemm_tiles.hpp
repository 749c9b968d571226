// The tile shapes of the tiled GEMM (common/opencl/gemm.cl and
// common/glsl/gemm.glsl), chosen per device and problem as CLBlast chooses
// its xgemm parameters from a table: the kernels never hard-code them. Used
// by MatMul; any op that reduces to a GEMM (Conv2D through im2col) chooses
// its tiles here too.
//
// A candidate is taken when the device can run it (work-group size, local
// memory), the product is at least half its tile in each dimension (else
// most of the tile's work is padding: batches of small matrices), and the
// problem gives it enough work-groups to occupy the device's compute units;
// the last runnable candidate is the fallback.
// GPUs: 128 x 128 tiles of 8 x 8 per work-item (the register blocking that
// makes a GEMM compute-bound on NVIDIA and AMD parts) read as float4 chunks,
// the next slice prefetched into registers, then 64 x 64 and 32 x 32 for
// products too small to fill the device. CPU drivers (PoCL, lavapipe):
// 128 x 128 with a 32-deep slice and no prefetch, the fastest of those
// measured on PoCL here (and as fast as any on lavapipe), and 32 x 32 for
// small products.
//
// OPRIG_GEMM_TILES=gpu (or cpu) in the environment takes that table on any
// device: the unit tests run the GPU tiles on PoCL and lavapipe so that a
// real GPU never runs a tile shape nobody has checked.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

namespace oprig::opsuite {

struct GemmTiles {
  uint32_t mwg, nwg, kwg;  // the work-group's tile: M x N outputs, K-deep slices
  uint32_t mdimc, ndimc;   // work-items along M and N (local size y and x)
  uint32_t vwm, vwn;       // contiguous rows / columns per work-item chunk
  uint32_t pad;            // floats after each k row of a local tile (bank spread; keep vwm, vwn aligned)
  uint32_t prefetch;       // 1: the next slice's global loads overlap the current slice's arithmetic

  constexpr uint32_t threads() const { return mdimc * ndimc; }
  // Bytes of local memory of the two staged slices (gemm.cl's OPRIG_GEMM_A_LOCAL + _B_LOCAL).
  uint64_t local_bytes() const { return uint64_t{4} * kwg * (mwg + nwg + 2 * pad); }
  uint64_t groups(uint64_t m, uint64_t n, uint64_t batches) const {
    return (m + mwg - 1) / mwg * ((n + nwg - 1) / nwg) * batches;
  }
  // What gemm.cl and gemm.glsl assume: whole chunks per work-item, each
  // slice staged in equal shares, and (gemm.glsl's register arrays, sized by
  // literals) at most kMaxWi x kMaxWi results and kMaxPer staged elements of
  // each slice per work-item.
  static constexpr uint32_t kMaxWi = 8, kMaxPer = 16;
  constexpr bool valid() const {
    return mdimc * vwm > 0 && ndimc * vwn > 0 && mwg % (mdimc * vwm) == 0 && nwg % (ndimc * vwn) == 0 &&
           kwg * mwg % threads() == 0 && kwg * nwg % threads() == 0 && pad % vwm == 0 && pad % vwn == 0 &&
           mwg / mdimc <= kMaxWi && nwg / ndimc <= kMaxWi && kwg * mwg / threads() <= kMaxPer &&
           kwg * nwg / threads() <= kMaxPer;
  }
};

// What the device allows and how wide it is.
struct GemmDevice {
  bool cpu = false;              // a CPU driver (PoCL, lavapipe)
  uint64_t max_threads = 0;      // work-items per work-group
  uint64_t max_local_bytes = 0;  // local / shared memory per work-group
  uint64_t compute_units = 1;    // work-groups that run at once, about
};

inline constexpr GemmTiles kGpuGemmTiles[] = {
    {128, 128, 16, 16, 16, 4, 4, 4, 1},
    {64, 64, 16, 16, 16, 2, 2, 4, 1},
    {32, 32, 16, 8, 8, 2, 2, 4, 1},
};
inline constexpr GemmTiles kCpuGemmTiles[] = {
    {128, 128, 32, 16, 16, 1, 1, 0, 0},
    {32, 32, 16, 8, 8, 1, 1, 0, 0},
};
static_assert([] {
  for (const GemmTiles& t : kGpuGemmTiles)
    if (!t.valid()) return false;
  for (const GemmTiles& t : kCpuGemmTiles)
    if (!t.valid()) return false;
  return true;
}());

// The tiles for an m x n product over `batches` matrices; {} (mwg 0) when
// the device can run none.
inline GemmTiles choose_gemm_tiles(const GemmDevice& device, uint64_t m, uint64_t n, uint64_t batches) {
  bool cpu = device.cpu;
  if (const char* forced = std::getenv("OPRIG_GEMM_TILES"); forced != nullptr)
    cpu = std::string_view(forced) == "cpu" || (std::string_view(forced) != "gpu" && cpu);
  const std::span<const GemmTiles> table =
      cpu ? std::span<const GemmTiles>(kCpuGemmTiles) : std::span<const GemmTiles>(kGpuGemmTiles);
  GemmTiles chosen{};
  for (const GemmTiles& t : table) {
    if (t.threads() > device.max_threads || t.local_bytes() > device.max_local_bytes) continue;
    chosen = t;
    if (2 * m >= t.mwg && 2 * n >= t.nwg && t.groups(m, n, batches) >= device.compute_units) break;
  }
  return chosen;
}

// The OpenCL build options that set gemm.cl's macros.
inline std::string gemm_build_options(const GemmTiles& t, bool transpose_a, bool transpose_b, bool half) {
  const auto define = [](const char* name, uint32_t value) {
    return std::string(" -D OPRIG_GEMM_") + name + "=" + std::to_string(value);
  };
  return define("MWG", t.mwg) + define("NWG", t.nwg) + define("KWG", t.kwg) + define("MDIMC", t.mdimc) +
         define("NDIMC", t.ndimc) + define("VWM", t.vwm) + define("VWN", t.vwn) + define("PAD", t.pad) + define("PREFETCH", t.prefetch) +
         define("TRANS_A", transpose_a) + define("TRANS_B", transpose_b) + define("HALF", half);
}

}  // namespace oprig::opsuite
