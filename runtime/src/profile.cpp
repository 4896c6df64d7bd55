// The profiler (profile.h) and the NVTX ranges (profile_internal.h).
#include "profile_book.h"
#include "profile_internal.h"

#include <tilec/profile.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>

#if TILEC_HAVE_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace tilec::detail {
namespace {

// A launch is timed only while fewer than this many timings are in flight: the events are
// read back later, never waited for at launch time.
constexpr size_t kMaxInFlight = 512;

struct EventPair {
  CUcontext context = nullptr; // events belong to the context they were made in
  CUevent start = nullptr, end = nullptr;
};

struct InFlight {
  size_t pair, row;
};

struct Profiler {
  std::atomic<bool> on{false};
  std::mutex mutex; // guards everything below
  ProfileBook book;
  std::vector<EventPair> pairs;  // every pair made
  std::vector<size_t> idle;      // pairs free for another launch
  std::deque<InFlight> in_flight; // oldest first

  /// Adds the finished timings to the book; with `wait`, waits for all of them.
  void collect(const Driver &d, bool wait) {
    while (!in_flight.empty()) {
      const InFlight f = in_flight.front();
      const EventPair &p = pairs[f.pair];
      const CUresult r = wait ? d.api.event_synchronize(p.end) : d.api.event_query(p.end);
      if (r == CUDA_ERROR_NOT_READY)
        return;
      float ms = 0;
      if (r == CUDA_SUCCESS && d.api.event_elapsed_time(&ms, p.start, p.end) == CUDA_SUCCESS)
        book.timed(f.row, double(ms));
      // else: the context is gone (a timing lost, not an error worth reporting)
      idle.push_back(f.pair);
      in_flight.pop_front();
    }
  }

  /// An event pair of `context`, or -1 when none can be made.
  int take_pair(const Driver &d, CUcontext context) {
    for (size_t i = idle.size(); i-- > 0;)
      if (pairs[idle[i]].context == context) {
        const size_t p = idle[i];
        idle.erase(idle.begin() + long(i));
        return int(p);
      }
    EventPair p;
    p.context = context;
    if (d.api.event_create(&p.start, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
      return -1;
    if (d.api.event_create(&p.end, CU_EVENT_DEFAULT) != CUDA_SUCCESS) {
      d.api.event_destroy(p.start);
      return -1;
    }
    pairs.push_back(p);
    return int(pairs.size() - 1);
  }
};

Profiler &profiler() {
  static Profiler *p = new Profiler; // never destroyed: the exit report runs late
  return *p;
}

void print_at_exit() {
  std::fprintf(stderr, "tilec: GPU time per kernel specialization (TILEC_PROFILE=1)\n%s",
               tilec::profile_table().c_str());
}

/// TILEC_PROFILE=1 turns the profiler on at the first launch and prints the table at exit.
void start_from_environment() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char *e = std::getenv("TILEC_PROFILE");
    if (e && *e && std::strcmp(e, "0") != 0) {
      profiler().on.store(true);
      std::atexit(print_at_exit);
    }
  });
}

} // namespace

LaunchProbe::LaunchProbe(const std::string &kernel, const DeviceContext &where, CUfunction fn,
                         CUstream stream)
    : kernel_(kernel), where_(where), fn_(fn), stream_(stream) {
#if TILEC_HAVE_NVTX
  nvtxRangePushA(kernel_.c_str());
#endif
  start_from_environment();
  Profiler &p = profiler();
  if (!p.on.load(std::memory_order_relaxed))
    return;
  const Driver &d = driver();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.collect(d, false);
  if (p.in_flight.size() >= kMaxInFlight)
    return;
  slot_ = p.take_pair(d, where_.context);
  if (slot_ >= 0 && d.api.event_record(p.pairs[size_t(slot_)].start, stream_) != CUDA_SUCCESS) {
    p.idle.push_back(size_t(slot_));
    slot_ = -1;
  }
}

void LaunchProbe::launched(CUresult r) {
  Profiler &p = profiler();
  if (!p.on.load(std::memory_order_relaxed) && slot_ < 0)
    return;
  const Driver &d = driver();
  std::lock_guard<std::mutex> lock(p.mutex);
  const size_t row = p.book.row(kernel_, where_.arch);
  if (r == CUDA_SUCCESS)
    p.book.launched(row);
  int registers = -1, local_bytes = -1;
  if (!p.book.has_resources(row) && fn_ &&
      d.api.func_get_attribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, fn_) == CUDA_SUCCESS &&
      d.api.func_get_attribute(&local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn_) ==
          CUDA_SUCCESS)
    p.book.resources(row, registers, local_bytes);
  if (slot_ < 0)
    return;
  if (r == CUDA_SUCCESS &&
      d.api.event_record(p.pairs[size_t(slot_)].end, stream_) == CUDA_SUCCESS)
    p.in_flight.push_back({size_t(slot_), row});
  else
    p.idle.push_back(size_t(slot_));
  slot_ = -1;
}

LaunchProbe::~LaunchProbe() {
#if TILEC_HAVE_NVTX
  nvtxRangePop();
#endif
}

NvtxRange::NvtxRange(const std::string &name) {
#if TILEC_HAVE_NVTX
  nvtxRangePushA(name.c_str());
#else
  (void)name;
#endif
}

NvtxRange::~NvtxRange() {
#if TILEC_HAVE_NVTX
  nvtxRangePop();
#endif
}

} // namespace tilec::detail

namespace tilec {

void profile_start() { detail::profiler().on.store(true); }

void profile_stop() { detail::profiler().on.store(false); }

void profile_reset() {
  detail::Profiler &p = detail::profiler();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (const detail::Driver *d = detail::try_driver())
    p.collect(*d, true);
  p.book.clear();
}

std::vector<KernelProfile> profile_data() {
  detail::Profiler &p = detail::profiler();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (!p.in_flight.empty())
    if (const detail::Driver *d = detail::try_driver())
      p.collect(*d, true);
  return p.book.sorted();
}

std::string profile_table() { return detail::format_profile_table(profile_data()); }

} // namespace tilec
