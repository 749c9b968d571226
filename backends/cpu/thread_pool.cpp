#define EIGEN_USE_THREADS
#include "cpu/thread_pool.hpp"

#include <algorithm>
#include <unsupported/Eigen/CXX11/ThreadPool>

namespace oprig {

struct CpuThreadPool::Workers {
  explicit Workers(int n) : pool(n) {}
  Eigen::ThreadPool pool;
};

CpuThreadPool::CpuThreadPool(unsigned threads) : threads_(std::max(1u, threads)) {
  if (threads_ > 1) workers_ = std::make_unique<Workers>(static_cast<int>(threads_ - 1));
}

CpuThreadPool::~CpuThreadPool() = default;

void CpuThreadPool::parallel_for(size_t n, size_t grain, void (*fn)(void*, size_t, size_t),
                                 void* arg) {
  if (n == 0) return;
  grain = std::max<size_t>(grain, 1);
  const size_t max_chunks = (n + grain - 1) / grain;
  const size_t chunks = std::min<size_t>(threads_, max_chunks);
  if (chunks <= 1 || !workers_) {
    fn(arg, 0, n);
    return;
  }
  const size_t step = (n + chunks - 1) / chunks;
  Eigen::Barrier done(static_cast<unsigned>(chunks - 1));
  for (size_t c = 1; c < chunks; ++c) {
    const size_t begin = c * step;
    const size_t end = std::min(n, begin + step);
    workers_->pool.Schedule([=, &done] {
      if (begin < end) fn(arg, begin, end);
      done.Notify();
    });
  }
  fn(arg, 0, std::min(n, step));
  done.Wait();
}

void CpuThreadPool::parallel_for_abi(void* pool, size_t n, size_t grain,
                                     void (*fn)(void*, size_t, size_t), void* arg) {
  static_cast<CpuThreadPool*>(pool)->parallel_for(n, grain, fn, arg);
}

}  // namespace oprig
