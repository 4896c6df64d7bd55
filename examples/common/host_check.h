// host_check.h - host-side pieces the examples' checks share: reproducible inputs, and the
// 0xFF "poison" fill that makes elements a kernel misses (or writes by mistake) visible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace example {

/// Deterministic inputs in [-1, 1) from a fixed seed (splitmix64: fast enough for 2^28).
struct Random {
  uint64_t state;
  float next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return float(z >> 40) * (2.0f / 16777216.0f) - 1.0f;
  }
};

/// Fills `bytes` bytes with 0xFF (NaN for fp32 and fp16), as the GPU runners do on the device.
inline void poison_host(void *p, size_t bytes) { std::memset(p, 0xFF, bytes); }

/// True when all `bytes` bytes at p still hold the poison.
inline bool is_poisoned(const void *p, size_t bytes) {
  const auto *b = static_cast<const unsigned char *>(p);
  for (size_t i = 0; i < bytes; ++i)
    if (b[i] != 0xFF)
      return false;
  return true;
}

} // namespace example
