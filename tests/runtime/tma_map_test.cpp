// encode_tma_map refuses, without a GPU or a driver call, what the copy engine cannot copy:
// the launcher then passes a zeroed map with its bit clear and the kernel copies with
// cp.async. (Maps it encodes are checked on the GPU: descriptor_gpu_test.cpp.)
#include <tilec/runtime.h>
#include <tilec/tma_map.h>

#include "tma_map_cache.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

bool zeroed(const tilec::TmaMap &m) {
  for (unsigned long long w : m.opaque)
    if (w)
      return false;
  return true;
}

alignas(16) unsigned char buffer[4096];

// Fills `m` with non-zero words, so that a refusal must zero it.
tilec::TmaMap dirty() {
  tilec::TmaMap m;
  for (auto &w : m.opaque)
    w = ~0ull;
  return m;
}

TEST(TmaMap, RefusesWhatTheCopyEngineCannotCopy) {
  struct Case {
    const char *what;
    const void *base;
    int elem_bytes;
    int64_t rows, cols, stride, tile_rows, tile_cols;
  } cases[] = {
      {"base not 16-byte aligned", buffer + 2, 2, 8, 8, 8, 8, 8},
      {"rows not a multiple of 16 bytes", buffer, 2, 8, 7, 7, 8, 8},
      {"no rows", buffer, 2, 0, 8, 8, 8, 8},
      {"no columns", buffer, 2, 8, 0, 8, 8, 8},
      {"a negative stride", buffer, 2, 8, 8, -8, 8, 8},
      {"rows beyond 2^31 - 1", buffer, 2, int64_t(1) << 31, 8, 8, 8, 8},
      {"a 3-byte element", buffer, 3, 8, 16, 16, 8, 16},
      {"a 144-byte tile row (no swizzle that wide)", buffer, 2, 8, 72, 72, 8, 72},
      {"an 8-byte tile row (below 16 bytes)", buffer, 2, 8, 8, 8, 8, 4},
  };
  for (const Case &c : cases) {
    tilec::TmaMap m = dirty();
    EXPECT_FALSE(tilec::encode_tma_map(m, c.base, c.elem_bytes, c.rows, c.cols, c.stride,
                                       c.tile_rows, c.tile_cols))
        << c.what;
    EXPECT_TRUE(zeroed(m)) << c.what;
    // A stack of such matrices is refused for the same reasons.
    m = dirty();
    EXPECT_FALSE(tilec::encode_stacked_tma_map(m, c.base, c.elem_bytes, c.rows, c.cols, c.stride,
                                               c.tile_rows, c.tile_cols))
        << "stacked: " << c.what;
    EXPECT_TRUE(zeroed(m)) << "stacked: " << c.what;
  }
}

// The matrices of a stack are 2^40 bytes apart at most (the map's stride limit): 2^30 rows of
// 1024 halves are one byte-stride too far, whatever the GPU.
TEST(TmaMap, StackedMatricesAreAtMostTwoToTheFortyBytesApart) {
  tilec::TmaMap m = dirty();
  EXPECT_FALSE(tilec::encode_stacked_tma_map(m, buffer, 2, int64_t(1) << 30, 1024, 1024, 64, 64));
  EXPECT_TRUE(zeroed(m));
}

// Without a GPU of compute capability 9.0 the answer is no for every matrix, and the map
// stays zeroed; with one, an aligned matrix is encoded.
TEST(TmaMap, AlignedMatrixNeedsTheCopyEngine) {
  tilec::TmaMap m = dirty();
  bool encoded = tilec::encode_tma_map(m, buffer, 2, 32, 64, 64, 16, 64);
  EXPECT_EQ(zeroed(m), !encoded);
  if (!tilec::gpu_available())
    EXPECT_FALSE(encoded);
  tilec::TmaMap stacked = dirty();
  bool stackedEncoded = tilec::encode_stacked_tma_map(stacked, buffer, 2, 32, 64, 64, 16, 64);
  EXPECT_EQ(zeroed(stacked), !stackedEncoded);
  EXPECT_EQ(stackedEncoded, encoded);
}

} // namespace

// The maps a thread encoded lately are found again by what they describe, and only by that:
// another base, shape, stride, box, element size, kind (stacked) or context is another map.
// The oldest entry gives way when a new one comes.
TEST(TmaMapCache, FindsAMapByEverythingItDescribes) {
  using tilec::detail::TmaMapKey;
  tilec::detail::TmaMapCache<4> cache;
  int ctx = 0, other_ctx = 0;
  const TmaMapKey key{&ctx, buffer, 64, 128, 128, 64, 64, 2, false};
  EXPECT_EQ(cache.find(key), nullptr);
  tilec::TmaMap m = dirty();
  m.opaque[3] = 42;
  cache.insert(key, m);
  ASSERT_NE(cache.find(key), nullptr);
  EXPECT_EQ(cache.find(key)->opaque[3], 42u);
  const TmaMapKey variants[] = {
      {&other_ctx, buffer, 64, 128, 128, 64, 64, 2, false},
      {&ctx, buffer + 16, 64, 128, 128, 64, 64, 2, false},
      {&ctx, buffer, 65, 128, 128, 64, 64, 2, false},
      {&ctx, buffer, 64, 120, 128, 64, 64, 2, false},
      {&ctx, buffer, 64, 128, 136, 64, 64, 2, false},
      {&ctx, buffer, 64, 128, 128, 32, 64, 2, false},
      {&ctx, buffer, 64, 128, 128, 64, 32, 2, false},
      {&ctx, buffer, 64, 128, 128, 64, 64, 1, false},
      {&ctx, buffer, 64, 128, 128, 64, 64, 2, true},
  };
  for (const TmaMapKey &v : variants)
    EXPECT_EQ(cache.find(v), nullptr);
  // Four more maps: the first is replaced by the fourth of them.
  for (int i = 0; i < 3; ++i) {
    cache.insert(variants[i], dirty());
    EXPECT_NE(cache.find(key), nullptr) << "after " << i + 1 << " more";
  }
  cache.insert(variants[3], dirty());
  EXPECT_EQ(cache.find(key), nullptr);
  for (int i = 0; i < 4; ++i)
    EXPECT_NE(cache.find(variants[i]), nullptr) << i;
}

// A refused map is not remembered: asking again is refused again (and zeroes the map again).
TEST(TmaMap, RefusalsAreNotReused) {
  for (int round = 0; round < 2; ++round) {
    tilec::TmaMap m = dirty();
    EXPECT_FALSE(tilec::encode_tma_map(m, buffer + 2, 2, 8, 8, 8, 8, 8));
    EXPECT_TRUE(zeroed(m));
  }
}
