#include "tool/LargeStack.h"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tilec {

namespace {

// A PROT_NONE region below the stack: a frame that runs past the stack's end lands in it
// even if it is large, so a fault there is known to be exhaustion and not a bug.
constexpr std::size_t kGuardBytes = std::size_t(4) << 20;
// The signal handler runs on its own small stack (the exhausted one has no room left).
constexpr std::size_t kAltStackBytes = std::size_t(64) << 10;

std::uintptr_t guardLo = 0, guardHi = 0;

void onSegv(int sig, siginfo_t *info, void *) {
  auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  if (addr >= guardLo && addr < guardHi) {
    static const char msg[] =
        "tilec: error: the input nests too deeply to parse (the translator's stack is "
        "exhausted); split long chains of operators, '?:' or 'else if' into several "
        "statements\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(1);
  }
  // Anything else is a real fault: die by it as usual (the handler is reset first).
  signal(sig, SIG_DFL);
}

struct Job {
  const std::function<int()> *fn;
  int result = 1;
  void *altStack = nullptr;
};

void *runJob(void *p) {
  auto *job = static_cast<Job *>(p);
  stack_t alt{};
  alt.ss_sp = job->altStack;
  alt.ss_size = kAltStackBytes;
  if (sigaltstack(&alt, nullptr) == 0) {
    struct sigaction sa{};
    sa.sa_sigaction = onSegv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, nullptr);
  }
  job->result = (*job->fn)();
  return nullptr;
}

} // namespace

int runWithLargeStack(std::size_t bytes, const std::function<int()> &fn) {
  std::size_t total = kGuardBytes + bytes;
  // MAP_NORESERVE: only the pages the translation touches are ever backed by memory.
  void *mem = mmap(nullptr, total + kAltStackBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mem == MAP_FAILED)
    return fn();
  auto *base = static_cast<char *>(mem);
  // Layout: [alt stack][guard][stack ...]: the stack grows down towards the guard.
  char *guard = base + kAltStackBytes;
  char *stack = guard + kGuardBytes;
  mprotect(guard, kGuardBytes, PROT_NONE);
  guardLo = reinterpret_cast<std::uintptr_t>(guard);
  guardHi = guardLo + kGuardBytes;
  Job job{&fn, 1, base};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0 && pthread_attr_setstack(&attr, stack, bytes) == 0 &&
                 pthread_create(&thread, &attr, runJob, &job) == 0;
  pthread_attr_destroy(&attr);
  if (!started) {
    munmap(mem, total + kAltStackBytes);
    return fn();
  }
  pthread_join(thread, nullptr);
  munmap(mem, total + kAltStackBytes);
  return job.result;
}

} // namespace tilec
