#include "runner/out_folder_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "runner/suite.hpp"

namespace oprig::harness {

OutFolderLock::OutFolderLock(const std::filesystem::path& out) {
  std::filesystem::create_directories(out);
  const std::filesystem::path file = out / ".oprig.lock";
  // CLOEXEC: workers must not inherit (and so prolong) the lock.
  fd_ = open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InputError(file.string() + ": cannot open the lock file: " + std::strerror(errno));
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    char pid[32] = {};
    const ssize_t n = pread(fd_, pid, sizeof pid - 1, 0);
    close(fd_);
    fd_ = -1;
    if (error != EWOULDBLOCK) throw InputError(file.string() + ": cannot lock: " + std::strerror(error));
    std::string holder = n > 0 ? std::string(pid, static_cast<size_t>(n)) : "unknown";
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
    throw InputError(out.string() + " is in use by another oprig run (pid " + holder +
                     "); wait for it, or give this run another --out");
  }
  const std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd_, 0) != 0 || pwrite(fd_, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    // The lock itself holds; only the message for a second run would lack the pid.
  }
}

OutFolderLock::~OutFolderLock() {
  if (fd_ >= 0) close(fd_);
}

}  // namespace oprig::harness
