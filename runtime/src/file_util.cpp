#include "file_util.h"

#include <atomic>
#include <cerrno>
#include <cstdio>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tilec::detail {

bool read_file(const std::string &path, std::string &out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  bool ok = read_all(fd, out);
  ::close(fd);
  return ok;
}

bool read_all(int fd, std::string &out) {
  out.clear();
  char buf[1 << 16];
  bool ok = true;
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      ok = false;
    if (n <= 0)
      break;
    out.append(buf, size_t(n));
  }
  return ok;
}

namespace {

bool write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    p += w;
    n -= size_t(w);
  }
  return true;
}

std::string parent_dir(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

} // namespace

bool write_file_atomically(const std::string &path, const std::string &data) {
  // 0600: cache entries are private (see cache_trust.h). Unique per process and call, so concurrent
  // writers (threads or processes) never share a temporary file; the last rename wins and every
  // candidate is complete.
  static std::atomic<unsigned> counter{0};
  std::string tmp =
      path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return false;
  bool ok = write_all(fd, data.data(), data.size()) && ::fsync(fd) == 0;
  ok = (::close(fd) == 0) && ok;
  if (ok)
    ok = ::rename(tmp.c_str(), path.c_str()) == 0;
  if (!ok) {
    int saved = errno; // callers report why the write failed, not why unlink did
    ::unlink(tmp.c_str());
    errno = saved;
    return false;
  }
  // Persist the rename itself; failure here only weakens durability, not correctness.
  int dir = ::open(parent_dir(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return true;
}

} // namespace tilec::detail
