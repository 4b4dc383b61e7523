#include "txgen/util/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace txgen::util {

FileLock::FileLock(const std::filesystem::path& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
  if (fd_ < 0) throw std::runtime_error("cannot open lock file " + path.string() + ": " + std::strerror(errno));
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int err = errno;
    ::close(fd_);
    throw std::runtime_error("cannot lock " + path.string() + ": " + std::strerror(err));
  }
}

FileLock::~FileLock() { ::close(fd_); }  // closing releases the lock

}  // namespace txgen::util
