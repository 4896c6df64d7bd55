// stats.h - process-wide counters behind tilec::runtime_stats().
#pragma once

#include <atomic>
#include <cstdint>

namespace tilec::detail {

struct Counters {
  std::atomic<uint64_t> nvrtc_compiles{0};
  std::atomic<uint64_t> disk_hits{0};
  std::atomic<uint64_t> disk_rejected{0};
  std::atomic<uint64_t> memory_hits{0};
  std::atomic<uint64_t> autotunings{0};
  std::atomic<uint64_t> autotune_disk_hits{0};
  std::atomic<uint64_t> autotune_disk_rejected{0};
  std::atomic<uint64_t> persistent_launches{0};
  std::atomic<uint64_t> tma_maps_encoded{0};
  std::atomic<uint64_t> tma_map_reuses{0};
  std::atomic<uint64_t> occupancy_steps{0};
};

/// Relaxed increments only: the counters order nothing.
Counters &counters();

inline void bump(std::atomic<uint64_t> &c) { c.fetch_add(1, std::memory_order_relaxed); }

} // namespace tilec::detail
