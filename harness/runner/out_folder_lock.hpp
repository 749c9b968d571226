// One run per output folder: a second run into the same --out would rewrite
// results.jsonl under the first and both would lose cases. The lock is an
// flock on OUT/.oprig.lock, held for the life of the process (the kernel
// drops it when the process dies, so a killed run never leaves a stale lock);
// the file holds the holder's pid for the refusal message.
#pragma once

#include <filesystem>

namespace oprig::harness {

class OutFolderLock {
 public:
  // Creates `out` if needed and locks it; throws InputError (exit 2) naming
  // the pid of the run that holds it.
  explicit OutFolderLock(const std::filesystem::path& out);
  ~OutFolderLock();
  OutFolderLock(const OutFolderLock&) = delete;
  OutFolderLock& operator=(const OutFolderLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace oprig::harness
