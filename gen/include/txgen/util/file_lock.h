// An exclusive advisory lock (flock(2)) on a file, held for the object's
// lifetime: processes sharing a build tree take turns.
#pragma once

#include <filesystem>

namespace txgen::util {

class FileLock {
 public:
  // Creates the file if missing; blocks until the lock is held. Throws
  // std::runtime_error when the file cannot be opened or locked.
  explicit FileLock(const std::filesystem::path& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

}  // namespace txgen::util
