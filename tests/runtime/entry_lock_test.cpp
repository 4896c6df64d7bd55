// Cache entries compiled once across processes: ranks that start together on an empty
// cache folder wait for the one that compiles, and a holder that dies hands over.
#include "entry_lock.h"
#include "spec_compiler.h"
#include "stats.h"
#include "test_env.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <vector>

using tilec::detail::EntryLock;

namespace {

tilec::detail::Hash128 some_key() { return {0x1234, 0x5678}; }

/// Whether another open file description could take `path`'s lock right now.
bool lock_is_free(const std::string &path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return false;
  const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  ::close(fd);
  return free;
}

} // namespace

// Eight processes start on one empty folder at the same moment and all need the same
// specialization: NVRTC runs once, the other seven read the entry it stored.
TEST(EntryLock, EightProcessesCompileOnce) {
  tilec_test::ScopedCacheDir dir;
  const tilec::detail::CompileJob job = tilec_test::scale_job("sm_80");
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  std::vector<pid_t> children;
  for (int i = 0; i < 8; ++i) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(go[1]);
      char c;
      if (::read(go[0], &c, 1) != 1) // every child starts at once
        ::_exit(90);
      try {
        const uint64_t before = tilec::detail::counters().nvrtc_compiles;
        const auto out = tilec::detail::compile_cached(job, dir.path());
        if (out.cubin.empty())
          ::_exit(91);
        ::_exit(int(tilec::detail::counters().nvrtc_compiles - before)); // 0 or 1
      } catch (...) {
        ::_exit(92);
      }
    }
    children.push_back(pid);
  }
  ::close(go[0]);
  ASSERT_EQ(::write(go[1], "gggggggg", 8), 8);
  ::close(go[1]);
  int compiles = 0;
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "a child died";
    const int code = WEXITSTATUS(status);
    ASSERT_LE(code, 1) << "a child failed (exit " << code << ")";
    compiles += code;
  }
  EXPECT_EQ(compiles, 1);
}

// The lock is really held while its owner lives, and released when the owner is killed.
TEST(EntryLock, WaiterTakesOverFromAHolderThatDied) {
  tilec_test::ScopedCacheDir dir;
  const std::string path = tilec::detail::entry_lock_path(dir.path(), some_key());
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    EntryLock lock(dir.path(), some_key());
    if (!lock.held())
      ::_exit(1);
    (void)!::write(ready[1], "h", 1);
    for (;;)
      ::pause(); // killed below, still holding the lock
  }
  ::close(ready[1]);
  char c;
  ASSERT_EQ(::read(ready[0], &c, 1), 1) << "the child could not take the lock";
  ::close(ready[0]);
  EXPECT_FALSE(lock_is_free(path)) << "the holder is alive: nobody else may take the lock";
  ::kill(pid, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EntryLock mine(dir.path(), some_key()); // would wait forever if the dead holder kept it
  EXPECT_TRUE(mine.held());
}

// A folder that cannot hold lock files gives no lock, and compiling still works.
TEST(EntryLock, UnusableFolderMeansNoLockNotAFailure) {
  tilec_test::ScopedCacheDir dir;
  const std::string file = dir.path() + "/plain_file";
  std::ofstream(file) << "x";
  EntryLock lock(file + "/cache", some_key()); // a folder under a regular file
  EXPECT_FALSE(lock.held());
  const auto out = tilec::detail::compile_cached(tilec_test::scale_job("sm_80"), file + "/cache");
  EXPECT_FALSE(out.cubin.empty());
}
