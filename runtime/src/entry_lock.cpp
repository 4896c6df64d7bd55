#include "entry_lock.h"

#include "cache_trust.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace tilec::detail {

std::string entry_lock_path(const std::string &dir, const Hash128 &key) {
  return dir + "/locks/" + key.hex() + ".lock";
}

EntryLock::EntryLock(const std::string &dir, const Hash128 &key) {
  std::string why;
  if (!make_private_dirs(dir + "/locks", why))
    return;
  // Lock files are never removed: unlinking one while another process waits on it would let
  // a third process lock a new file of the same name, and two would compile.
  const int fd = ::open(entry_lock_path(dir, key).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    return;
  int r;
  do
    r = ::flock(fd, LOCK_EX);
  while (r != 0 && errno == EINTR);
  if (r != 0) {
    ::close(fd);
    return;
  }
  fd_ = fd;
}

EntryLock::~EntryLock() {
  if (fd_ >= 0)
    ::close(fd_); // closing the last descriptor of the open file releases the flock
}

} // namespace tilec::detail
