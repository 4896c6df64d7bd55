// Atomics: add/max/min/xchg with masks on tiles of pointers and plain pointers, cas;
// returned old values; masked-off lanes neither touched nor reported (0).
#include "support.h"

#include <gtest/gtest.h>

using namespace tilec_test;

// A histogram of x into n_bins bins, BLOCK elements per program.
template <int BLOCK> TILEC_KERNEL void histogram_kernel(const int32_t *x, int32_t *hist, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto bins = tl::load(x + offs, mask);
  tl::atomic_add(hist + bins, 1, mask);
}

TEST(Atomic, Histogram) {
  for (int n : kSizes) {
    const int n_bins = 37;
    auto x = random_ints<int32_t>(n, 0, n_bins - 1, 81);
    Rows<int32_t> hist(1, n_bins);
    std::fill(hist.data(), hist.data() + n_bins, 0);
    tilec::interpret::launch(histogram_kernel<256>, grid_for(n, 256), x.data(), hist.data(), n);
    std::vector<int32_t> want(n_bins, 0);
    for (int v : x)
      ++want[v];
    for (int b = 0; b < n_bins; ++b)
      ASSERT_EQ(hist.at(0, b), want[b]) << b;
    EXPECT_TRUE(hist.guards_intact()) << n;
  }
}

// Every program: running max/min of its block into per-lane slots, and a global max,
// min, sum and count through plain pointers.
template <int BLOCK>
TILEC_KERNEL void minmax_kernel(const float *x, float *lane_max, float *lane_min, float *gmax,
                                int64_t *gcount, double *gsum, int n) {
  auto lanes = tl::arange<0, BLOCK>();
  auto offs = tl::program_id(0) * BLOCK + lanes;
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask);
  tl::atomic_max(lane_max + lanes, v, mask);
  tl::atomic_min(lane_min + lanes, v, mask);
  tl::atomic_max(gmax, tl::max(tl::where(mask, v, -INFINITY)));
  tl::atomic_add(gcount, tl::cast<int64_t>(mask)); // a scalar pointer, one lane at a time
  tl::atomic_add(gsum, tl::cast<double>(v), mask);
}

TEST(Atomic, MaxMinAddThroughScalarPointers) {
  for (int n : kSizes) {
    constexpr int B = 128;
    auto x = random_floats(n, -50.f, 50.f, 82);
    Rows<float> lane_max(1, B), lane_min(1, B);
    std::fill(lane_max.data(), lane_max.data() + B, -INFINITY);
    std::fill(lane_min.data(), lane_min.data() + B, INFINITY);
    float gmax = -INFINITY;
    int64_t gcount = 0;
    double gsum = 0;
    tilec::interpret::launch(minmax_kernel<B>, grid_for(n, B), x.data(), lane_max.data(),
                             lane_min.data(), &gmax, &gcount, &gsum, n);
    std::vector<float> wmax(B, -INFINITY), wmin(B, INFINITY);
    double s = 0;
    for (int i = 0; i < n; ++i) {
      wmax[i % B] = std::max(wmax[i % B], x[i]);
      wmin[i % B] = std::min(wmin[i % B], x[i]);
      s += x[i];
    }
    for (int l = 0; l < B; ++l)
      ASSERT_TRUE(lane_max.at(0, l) == wmax[l] && lane_min.at(0, l) == wmin[l]) << l;
    EXPECT_EQ(gmax, *std::max_element(x.begin(), x.end()));
    EXPECT_EQ(gcount, n);
    EXPECT_NEAR(gsum, s, 1e-6 * n);
    EXPECT_TRUE(lane_max.guards_intact() && lane_min.guards_intact()) << n;
  }
}

TEST(Atomic, OldValuesAndMasks) {
  // Lanes to one scalar pointer run in row-major order: the old values are a running sum.
  int32_t counter = 10;
  auto old = tl::atomic_add(&counter, tl::full<int32_t, 2, 4>(1));
  static_assert(std::is_same_v<decltype(old), tl::tile<int32_t, 2, 4>>);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(old.elems[i], 10 + i);
  EXPECT_EQ(counter, 18);
  // A scalar atomic returns a scalar; a false mask returns 0 and writes nothing.
  uint32_t u = 5;
  EXPECT_EQ(tl::atomic_max(&u, 9u), 5u);
  EXPECT_EQ(tl::atomic_min(&u, 7), 9u);
  EXPECT_EQ(tl::atomic_xchg(&u, 100, false), 0u);
  EXPECT_EQ(u, 7u);
  // Masked-off lanes point far outside any allocation: never dereferenced.
  int64_t cell = 3;
  auto far = &cell + tl::arange<0, 4>() * (1 << 28);
  auto first = tl::arange<0, 4>() == 0;
  auto got = tl::atomic_add(far, int64_t(1) << 40, first);
  EXPECT_EQ(got.elems[0], 3);
  EXPECT_TRUE(got.elems[1] == 0 && got.elems[2] == 0 && got.elems[3] == 0);
  EXPECT_EQ(cell, 3 + (int64_t(1) << 40));
  tl::atomic_max(far, 0, false);
  tl::atomic_min(far, 0, tl::full<bool, 4>(false));
  // Unsigned wrap, signed extremes, doubles and exchanges on tiles.
  uint64_t big[2] = {~0ull, 1};
  auto ob = tl::atomic_add(big + tl::arange<0, 2>(), 2);
  EXPECT_TRUE(ob.elems[0] == ~0ull && big[0] == 1 && big[1] == 3);
  int32_t s[4] = {-5, 5, 0, 7};
  auto os = tl::atomic_min(s + tl::arange<0, 4>(), tl::arange<0, 4>() - 2, tl::arange<0, 4>() < 3);
  EXPECT_TRUE(s[0] == -5 && s[1] == -1 && s[2] == 0 && s[3] == 7);
  EXPECT_TRUE(os.elems[1] == 5 && os.elems[3] == 0);
  double d[4] = {1, 2, 3, 4};
  auto od = tl::atomic_xchg(d + tl::arange<0, 4>(), tl::cast<double>(tl::arange<0, 4>()) * 0.5);
  EXPECT_TRUE(od.elems[3] == 4.0 && d[3] == 1.5 && d[0] == 0.0);
  float f = 1.5f;
  EXPECT_EQ(tl::atomic_add(&f, 0.25), 1.5f); // the value converts to the pointee type
  EXPECT_EQ(f, 1.75f);
}

// A lock-free "first program wins" flag and per-slot compare-and-swap.
template <int BLOCK> TILEC_KERNEL void cas_kernel(int32_t *winner, uint32_t *slots) {
  int pid = tl::program_id(0);
  tl::atomic_cas(winner, 0, pid + 1);
  auto lanes = tl::arange<0, BLOCK>();
  // Program l claims slot l (0 -> l + 1); every later program advances the claimed slots
  // (pid -> pid + 1); lanes past pid compare with a value no slot holds.
  auto cmp = tl::where(lanes == pid, 0, tl::where(lanes < pid, pid, -1));
  auto old = tl::atomic_cas(slots + lanes, cmp, pid + 1);
  (void)old;
}

TEST(Atomic, CompareAndSwap) {
  int32_t winner = 0;
  std::vector<uint32_t> slots(8, 0);
  tilec::interpret::launch(cas_kernel<8>, tilec::Grid{5}, &winner, slots.data());
  EXPECT_EQ(winner, 1); // program 0 set it first; the others saw a non-zero value
  for (int l = 0; l < 8; ++l)
    EXPECT_EQ(slots[l], l < 5 ? 5u : 0u) << l;
  // Floats compare bit patterns: -0.0 is not 0.0, and a NaN matches itself.
  float v[2] = {-0.0f, std::nanf("")};
  auto fp = v + tl::arange<0, 2>();
  auto ov = tl::atomic_cas(fp, tl::full<float, 2>(0.0f), 9.0f);
  EXPECT_TRUE(same_bits(ov.elems[0], -0.0f) && same_bits(v[0], -0.0f));
  float nan = v[1];
  tl::atomic_cas(v + 1, nan, 2.0f);
  EXPECT_EQ(v[1], 2.0f);
  int64_t w = 4;
  EXPECT_EQ(tl::atomic_cas(&w, 4, -8), 4);
  EXPECT_EQ(w, -8);
}

// atomic_or / atomic_and / atomic_xor (integers) and atomic_add of half and bfloat16, against
// plain loops; masked-off lanes untouched.
template <int BLOCK>
TILEC_KERNEL void bits_and_halves(const int32_t *x, uint32_t *set, uint32_t *cleared,
                                  int64_t *toggled, tl::bfloat16 *bsum, tl::half *hsum, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0);
  auto bit = 1u << tl::cast<uint32_t>(v % 32);
  auto old = tl::atomic_or(set + v % 4, bit, mask);
  tl::atomic_and(cleared + v % 4, ~bit, mask);
  tl::atomic_xor(toggled + v % 4, tl::cast<int64_t>(bit), mask);
  tl::atomic_add(bsum + v % 4, tl::cast<tl::bfloat16>(v % 3), mask);
  tl::atomic_add(hsum, tl::cast<tl::half>(v % 3 - 1), mask);
  static_assert(std::is_same_v<tl::detail::elem_t<decltype(old)>, uint32_t>);
}

TEST(Atomic, BitwiseAndSixteenBitAdds) {
  const int n = 300;
  auto x = random_ints<int32_t>(n, 0, 1000, 5);
  std::vector<uint32_t> set(5, 0u), cleared(5, ~0u);
  std::vector<int64_t> toggled(5, 3);
  std::vector<tl::bfloat16> bsum(5, tl::bfloat16(0.0f));
  tl::half hsum(0.5f);
  tilec::interpret::launch(bits_and_halves<128>, grid_for(n, 128), x.data(), set.data(),
                           cleared.data(), toggled.data(), bsum.data(), &hsum, n);
  std::vector<uint32_t> want_set(5, 0u), want_cleared(5, ~0u);
  std::vector<int64_t> want_toggled(5, 3);
  std::vector<float> want_bsum(5, 0.0f);
  float want_h = 0.5f;
  for (int v : x) {
    const uint32_t bit = 1u << (v % 32);
    want_set[v % 4] |= bit;
    want_cleared[v % 4] &= ~bit;
    want_toggled[v % 4] ^= int64_t(bit);
    want_bsum[v % 4] = float(tl::bfloat16(want_bsum[v % 4] + float(v % 3)));
    want_h = float(tl::half(want_h + float(v % 3 - 1)));
  }
  EXPECT_EQ(set, want_set);
  EXPECT_EQ(cleared, want_cleared);
  EXPECT_EQ(toggled, want_toggled);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(float(bsum[i]), want_bsum[i]) << i;
  EXPECT_EQ(float(hsum), want_h);
  EXPECT_EQ(set[4], 0u); // the fifth word is past every v % 4
}
