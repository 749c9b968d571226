// POSIX implementation of the atomic replace (temp file + fsync + rename).
#include "reports/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

namespace oprig::reports {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what, int err) {
  throw ReportWriteError("cannot write " + path.string() + ": " + what + ": " + std::strerror(err));
}

// Owns the temporary file until it has been renamed into place.
class TempFile {
 public:
  explicit TempFile(const std::filesystem::path& target) {
    static std::atomic<unsigned> counter{0};
    // O_EXCL with a per-process name: concurrent writers never share a temp file.
    for (int attempt = 0; attempt < 100; ++attempt) {
      // Appended piecewise: GCC 12 misreports `"." + std::string` under -O3 (-Wrestrict).
      std::string name = ".";
      name += target.filename().string();
      name += ".tmp.";
      name += std::to_string(::getpid());
      name += ".";
      name += std::to_string(counter++);
      path_ = target.parent_path() / name;
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd_ >= 0 || errno != EEXIST) break;
    }
    if (fd_ < 0) fail(target, "cannot create temporary file " + path_.string(), errno);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!renamed_) ::unlink(path_.c_str());
  }

  int fd() const { return fd_; }
  const std::filesystem::path& path() const { return path_; }
  int close() {
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }
  void mark_renamed() { renamed_ = true; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  bool renamed_ = false;
};

void write_fully(int fd, std::string_view content, const std::filesystem::path& target) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(target, "write failed", errno);
    }
    content.remove_prefix(static_cast<size_t>(n));
  }
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  const std::filesystem::path target = path.has_parent_path() ? path : std::filesystem::path(".") / path;
  TempFile temp(target);
  write_fully(temp.fd(), content, target);
  if (::fsync(temp.fd()) != 0) fail(target, "fsync failed", errno);
  if (temp.close() != 0) fail(target, "close failed", errno);
  if (::rename(temp.path().c_str(), target.c_str()) != 0) fail(target, "rename failed", errno);
  temp.mark_renamed();
  // Make the rename itself durable; a directory that cannot be opened for
  // fsync (some filesystems) does not make the write fail.
  const int dir_fd = ::open(target.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

}  // namespace oprig::reports
