// entry_lock.h - one process compiles a cache entry while the others that need it wait.
//
// Ranks of a job that start together on one node all miss the same empty cache entry; without
// a lock each would run NVRTC for it. The lock is an advisory flock on
// `<dir>/locks/<key hex>.lock`: the kernel drops it when its holder exits or dies, so a waiter
// whose holder crashed simply takes over. Where the folder cannot hold a lock file (read-only,
// or a file system without flock) there is no lock and every process compiles for itself, as
// before: the lock saves work, correctness never depends on it.
#pragma once

#include "hash.h"

#include <string>

namespace tilec::detail {

class EntryLock {
public:
  /// Waits for and takes the lock of `key`'s entry in `dir`; held() says whether it got one.
  EntryLock(const std::string &dir, const Hash128 &key);
  ~EntryLock();
  EntryLock(const EntryLock &) = delete;
  EntryLock &operator=(const EntryLock &) = delete;

  bool held() const { return fd_ >= 0; }

private:
  int fd_ = -1;
};

/// `<dir>/locks/<key hex>.lock`.
std::string entry_lock_path(const std::string &dir, const Hash128 &key);

} // namespace tilec::detail
