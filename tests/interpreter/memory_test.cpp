// load/store: masks, `other` values (scalar and tile), scalar loads and stores, pointer
// tile arithmetic, broadcast stores, loads through const pointers.
#include "support.h"

#include <gtest/gtest.h>

using namespace tilec_test;

// Row 0: other as a scalar; row 1: other as a tile; row 2: default other (0).
// Every lane is stored; lanes with odd index or past n take `other`.
template <int BLOCK> TILEC_KERNEL void other_kernel(const float *x, float *out, int stride, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = (offs < n) && (offs % 2 == 0);
  auto in_range = offs < n;
  tl::store(out + offs, tl::load(x + offs, mask, -7.0f), in_range);
  tl::store(out + stride + offs, tl::load(x + offs, mask, tl::cast<float>(offs) * 0.5f), in_range);
  tl::store(out + 2 * stride + offs, tl::load(x + offs, mask), in_range);
}

TEST(Memory, OtherValues) {
  for (int n : kSizes) {
    auto x = random_floats(n, 1.f, 2.f, 51);
    Rows<float> out(3, n);
    tilec::interpret::launch(other_kernel<128>, grid_for(n, 128), x.data(), out.data(),
                             out.stride(), n);
    for (int i = 0; i < n; ++i) {
      bool m = i % 2 == 0;
      ASSERT_EQ(out.at(0, i), m ? x[i] : -7.0f) << i;
      ASSERT_EQ(out.at(1, i), m ? x[i] : float(i) * 0.5f) << i;
      ASSERT_EQ(out.at(2, i), m ? x[i] : 0.0f) << i;
    }
    EXPECT_TRUE(out.guards_intact()) << n;
  }
}

// Scalar loads and stores through plain pointers; program 0 also writes a sum.
template <int BLOCK>
TILEC_KERNEL void scalar_kernel(const int *scale, const float *x, float *out, float *first, int n) {
  int pid = tl::program_id(0);
  int s = tl::load(scale);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(out + offs, tl::load(x + offs, mask) * s, mask);
  if (pid == 0) {
    float a = tl::load(x);
    float b = tl::load(x + 1, n > 1, 100.0f); // masked scalar load
    tl::store(first, a + b);
    tl::store(first + 1, 5.0f, n > 1000000); // masked scalar store
  }
}

TEST(Memory, ScalarLoadStore) {
  for (int n : kSizes) {
    auto x = random_floats(n, -1.f, 1.f, 52);
    int scale = 3;
    Rows<float> out(1, n);
    float first[2] = {0, -1};
    tilec::interpret::launch(scalar_kernel<256>, grid_for(n, 256), &scale, x.data(), out.data(),
                             first, n);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(out.at(0, i), x[i] * 3) << i;
    EXPECT_EQ(first[0], x[0] + (n > 1 ? x[1] : 100.0f));
    EXPECT_EQ(first[1], n > 1000000 ? 5.0f : -1.0f);
    EXPECT_TRUE(out.guards_intact()) << n;
  }
}

// Pointer tiles: tile + tile, tile + scalar, +=, and a broadcast scalar store.
template <int BLOCK>
TILEC_KERNEL void pointer_kernel(const float *x, float *out, float *fill, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto base = x + tl::zeros<int64_t, BLOCK>(); // tile of BLOCK copies of x
  auto ptrs = base + offs;                     // tile<const float*> + tile<int>
  auto reversed = (x + (n - 1)) - offs;        // pointer tile - tile
  auto out_ptrs = out + offs;
  out_ptrs += 0;
  tl::store(out_ptrs, tl::load(ptrs, mask) - tl::load(reversed, mask), mask);
  tl::store(fill + offs, 2.5f, mask); // a scalar broadcasts over the pointers
}

TEST(Memory, PointerTiles) {
  for (int n : kSizes) {
    auto x = random_floats(n, -1.f, 1.f, 53);
    Rows<float> out(1, n), fill(1, n);
    tilec::interpret::launch(pointer_kernel<64>, grid_for(n, 64), x.data(), out.data(), fill.data(),
                             n);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(out.at(0, i), x[i] - x[n - 1 - i]) << i;
      ASSERT_EQ(fill.at(0, i), 2.5f) << i;
    }
    EXPECT_TRUE(out.guards_intact() && fill.guards_intact()) << n;
  }
}

TEST(Memory, MaskedLanesAreNotRead) {
  // Pointer tiles whose masked-off lanes point nowhere valid: loads and stores must not
  // touch them (without the mask check the far lanes would fault, or ASan would report).
  float v = 4.0f;
  auto far = &v + tl::arange<0, 4>() * (1 << 28); // lane 0 is &v
  static_assert(std::is_same_v<decltype(far), tl::tile<float *, 4>>);
  auto first = tl::arange<0, 4>() == 0;
  auto got = tl::load(far, first, 1.0f);
  EXPECT_EQ(tl::detail::at(got, 0), 4.0f);
  EXPECT_EQ(tl::detail::at(got, 3), 1.0f);
  tl::store(far, tl::full<float, 4>(9.0f), first);
  EXPECT_EQ(v, 9.0f);
  const float *null = nullptr;
  auto bad = null + tl::arange<0, 4>();
  EXPECT_EQ(tl::detail::at(tl::load(bad, false, 2.0f), 2), 2.0f);
  tl::store(far + 1, 1.0f, false); // nothing is written
}

TEST(Memory, EvictionHintsKeepValues) {
  // The hinted forms of load and store take the same operands plus a hint, and move the same
  // values (masked lanes included) as the plain forms.
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8] = {}, z[8] = {};
  auto offs = tl::arange<0, 8>();
  auto m = offs < 6;
  auto a = tl::load(x + offs, m, -1.0f, tl::evict_first);
  auto b = tl::load(x + offs, m, tl::evict_last);
  auto c = tl::load(x + offs, tl::eviction::normal);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(tl::detail::at(a, i), i < 6 ? x[i] : -1.0f) << i;
    EXPECT_EQ(tl::detail::at(b, i), i < 6 ? x[i] : 0.0f) << i;
    EXPECT_EQ(tl::detail::at(c, i), x[i]) << i;
  }
  tl::store(y + offs, c * 2.0f, m, tl::evict_first);
  tl::store(z + offs, c, tl::evict_last);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(y[i], i < 6 ? 2 * x[i] : 0.0f) << i;
    EXPECT_EQ(z[i], x[i]) << i;
  }
}
