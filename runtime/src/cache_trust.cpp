#include "cache_trust.h"

#include "file_util.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tilec::detail {
namespace {

constexpr mode_t kSharedBits = S_IWGRP | S_IWOTH;

std::mutex g_warned_mutex;
std::set<std::string> g_warned_dirs;

bool first_warning_for(const std::string &dir) {
  std::lock_guard<std::mutex> lock(g_warned_mutex);
  return g_warned_dirs.insert(dir).second;
}

std::string octal_mode(mode_t m) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%03o", unsigned(m & 07777));
  return buf;
}

} // namespace

bool make_private_dirs(const std::string &dir, std::string &why) {
  if (dir.empty()) {
    why = "the folder name is empty";
    return false;
  }
  // Walk down from the root, creating what is missing; each created folder is chmod'ed
  // because mkdir's mode is narrowed by the umask, never widened, and 0700 is what we want.
  for (size_t end = dir.find('/', 1);; end = dir.find('/', end + 1)) {
    std::string part = end == std::string::npos ? dir : dir.substr(0, end);
    if (!part.empty() && part.back() != '/') {
      if (::mkdir(part.c_str(), 0700) == 0) {
        ::chmod(part.c_str(), 0700);
      } else if (errno != EEXIST) {
        why = part + ": " + std::strerror(errno);
        return false;
      } else {
        struct stat st;
        if (::stat(part.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
          why = part + ": not a folder";
          return false;
        }
      }
    }
    if (end == std::string::npos)
      break;
  }
  warn_if_shared(dir);
  return true;
}

void warn_if_shared(const std::string &dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || !(st.st_mode & kSharedBits))
    return;
  if (first_warning_for(dir))
    std::fprintf(stderr,
                 "tilec: warning: the kernel cache folder '%s' is writable by other users (mode "
                 "%s); their entries are refused, but use a private folder (chmod 700 '%s', or "
                 "set TILEC_CACHE_DIR)\n",
                 dir.c_str(), octal_mode(st.st_mode).c_str(), dir.c_str());
}

TrustedRead read_trusted_file(const std::string &path, std::string &out) {
  // O_NOFOLLOW: a link planted in a shared folder is refused rather than followed.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ELOOP) {
      std::fprintf(stderr,
                   "tilec: warning: ignoring the cache entry '%s': it is a symbolic link; it "
                   "will be recompiled and replaced\n",
                   path.c_str());
      return TrustedRead::Refused;
    }
    return TrustedRead::Missing;
  }
  // fstat on the open descriptor: the file checked is the file read.
  struct stat st;
  std::string reason;
  if (::fstat(fd, &st) != 0)
    reason = std::string("cannot stat it: ") + std::strerror(errno);
  else if (!S_ISREG(st.st_mode))
    reason = "it is not a regular file";
  else if (st.st_uid != ::geteuid())
    reason = "it is owned by uid " + std::to_string(st.st_uid) + ", not by this user (uid " +
             std::to_string(::geteuid()) + ")";
  else if (st.st_mode & kSharedBits)
    reason = "it is writable by other users (mode " + octal_mode(st.st_mode) + ")";
  if (!reason.empty()) {
    ::close(fd);
    std::fprintf(stderr,
                 "tilec: warning: ignoring the cache entry '%s': %s; it will be recompiled "
                 "and replaced\n",
                 path.c_str(), reason.c_str());
    return TrustedRead::Refused;
  }
  bool ok = read_all(fd, out);
  ::close(fd);
  return ok ? TrustedRead::Ok : TrustedRead::Missing;
}

} // namespace tilec::detail
