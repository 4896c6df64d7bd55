#include "stats.h"

#include <tilec/runtime.h>

namespace tilec {
namespace detail {

Counters &counters() {
  static Counters *c = new Counters; // never destroyed: usable from static destructors
  return *c;
}

} // namespace detail

RuntimeStats runtime_stats() {
  detail::Counters &c = detail::counters();
  RuntimeStats s;
  s.nvrtc_compiles = c.nvrtc_compiles.load(std::memory_order_relaxed);
  s.disk_hits = c.disk_hits.load(std::memory_order_relaxed);
  s.disk_rejected = c.disk_rejected.load(std::memory_order_relaxed);
  s.memory_hits = c.memory_hits.load(std::memory_order_relaxed);
  s.autotunings = c.autotunings.load(std::memory_order_relaxed);
  s.autotune_disk_hits = c.autotune_disk_hits.load(std::memory_order_relaxed);
  s.autotune_disk_rejected = c.autotune_disk_rejected.load(std::memory_order_relaxed);
  s.persistent_launches = c.persistent_launches.load(std::memory_order_relaxed);
  s.tma_maps_encoded = c.tma_maps_encoded.load(std::memory_order_relaxed);
  s.tma_map_reuses = c.tma_map_reuses.load(std::memory_order_relaxed);
  s.occupancy_steps = c.occupancy_steps.load(std::memory_order_relaxed);
  return s;
}

} // namespace tilec
