#include "hash.h"

#include <cstring>

namespace tilec::detail {
namespace {

// Strong 64-bit finalizer: every input bit affects every output bit.
uint64_t mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ull;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dull;
  x ^= x >> 33;
  return x;
}

uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

} // namespace

void Hasher::absorb(const unsigned char *p, size_t n) {
  // Two independent lanes, 8 bytes at a time; the tail is zero-padded (length is mixed
  // in separately, so padding is unambiguous).
  while (n > 0) {
    uint64_t w = 0;
    size_t k = n < 8 ? n : 8;
    std::memcpy(&w, p, k);
    a_ = rotl(a_ ^ mix(w + 0x9e3779b97f4a7c15ull), 29) * 0xbf58476d1ce4e5b9ull;
    b_ = rotl(b_ + mix(w ^ 0xc2b2ae3d27d4eb4full), 31) * 0x94d049bb133111ebull;
    p += k;
    n -= k;
  }
}

Hasher &Hasher::feed(const void *data, size_t size) {
  feed_u64(size);
  absorb(static_cast<const unsigned char *>(data), size);
  total_ += size;
  return *this;
}

Hasher &Hasher::feed_u64(uint64_t x) {
  unsigned char buf[8];
  std::memcpy(buf, &x, 8);
  absorb(buf, 8);
  return *this;
}

Hash128 Hasher::finish() const {
  Hash128 h;
  h.hi = mix(a_ ^ mix(b_ + total_));
  h.lo = mix(b_ ^ mix(a_ + ~total_));
  return h;
}

std::string Hash128::hex() const {
  static const char digits[] = "0123456789abcdef";
  std::string s(32, '0');
  for (int i = 0; i < 16; ++i) {
    s[15 - i] = digits[(hi >> (4 * i)) & 15];
    s[31 - i] = digits[(lo >> (4 * i)) & 15];
  }
  return s;
}

} // namespace tilec::detail
