// The cpu backend's worker threads (Eigen's ThreadPool) and the parallel_for
// that kernels reach through oprig_backend_context::cpu_parallel_for.
#pragma once

#include <cstddef>
#include <memory>

namespace oprig {

class CpuThreadPool {
 public:
  // threads counts the calling thread: threads - 1 workers are started.
  explicit CpuThreadPool(unsigned threads);
  ~CpuThreadPool();
  unsigned threads() const { return threads_; }

  // Splits [0, n) into at most threads() chunks of at least `grain` elements,
  // runs one on the calling thread and the rest on workers, and returns when
  // all are done.
  void parallel_for(size_t n, size_t grain, void (*fn)(void*, size_t, size_t), void* arg);

  // C ABI trampoline for oprig_backend_context::cpu_parallel_for.
  static void parallel_for_abi(void* pool, size_t n, size_t grain,
                               void (*fn)(void*, size_t, size_t), void* arg);

 private:
  unsigned threads_;
  struct Workers;  // Eigen::ThreadPool, kept out of this header
  std::unique_ptr<Workers> workers_;
};

}  // namespace oprig
