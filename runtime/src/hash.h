// hash.h - a 128-bit content hash for cache keys and cache entry checksums.
// Not cryptographic: it guards against accidental collisions and corrupt files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tilec::detail {

struct Hash128 {
  uint64_t hi = 0, lo = 0;
  bool operator==(const Hash128 &o) const { return hi == o.hi && lo == o.lo; }
  bool operator!=(const Hash128 &o) const { return !(*this == o); }
  /// 32 lowercase hex digits.
  std::string hex() const;
};

/// Incremental hasher; feed() of the same bytes in the same pieces gives the same hash.
/// Each piece is length-prefixed, so ("ab", "c") and ("a", "bc") differ.
class Hasher {
public:
  Hasher &feed(const void *data, size_t size);
  Hasher &feed(std::string_view s) { return feed(s.data(), s.size()); }
  Hasher &feed_u64(uint64_t x);
  Hash128 finish() const;

private:
  void absorb(const unsigned char *p, size_t n);
  uint64_t a_ = 0x6a09e667f3bcc908ull, b_ = 0xbb67ae8584caa73bull;
  uint64_t total_ = 0;
};

inline Hash128 hash_bytes(const void *data, size_t size) {
  return Hasher().feed(data, size).finish();
}

} // namespace tilec::detail
