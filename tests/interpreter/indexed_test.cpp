// tl::flip, tl::gather, tl::sort / tl::topk and tl::histogram against plain loops: every axis
// of rank 1-3 tiles, index and value types, masks, values outside the bins, an index out of
// range, the order of zeros, infinities and NaNs; then the
// kernels of the GPU test (tests/gpu/kernels/indexed.cpp) at sizes that are not multiples of
// their blocks. The GPU test compares the GPU with the interpreter, so this keeps that
// reference honest.
#include "support.h"

#include "indexed.cpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>

using namespace tilec_test;

namespace {

/// The shape of a tile as three dimensions, padded with leading 1s, and the axis among them.
template <class Tile> std::array<int, 3> dims3() {
  std::array<int, 3> d{1, 1, 1};
  for (int i = 0; i < Tile::rank; ++i)
    d[size_t(3 - Tile::rank + i)] = Tile::shape::value[size_t(i)];
  return d;
}
std::array<int, 3> coords(int f, std::array<int, 3> d) {
  return {f / (d[1] * d[2]), f / d[2] % d[1], f % d[2]};
}
int flat(std::array<int, 3> c, std::array<int, 3> d) { return (c[0] * d[1] + c[1]) * d[2] + c[2]; }

template <class Tile> Tile iota_tile(int scale) {
  Tile t;
  for (int i = 0; i < Tile::numel; ++i)
    t.elems[i] = typename Tile::element_type(i * scale - 7);
  return t;
}

template <int AXIS, class Tile> void check_flip(const Tile &t) {
  SCOPED_TRACE(testing::Message() << "rank " << Tile::rank << " axis " << AXIS);
  const auto r = tl::flip<AXIS>(t);
  static_assert(std::is_same_v<decltype(r), const Tile>);
  const auto d = dims3<Tile>();
  const int ax = 3 - Tile::rank + (AXIS < 0 ? AXIS + Tile::rank : AXIS);
  for (int f = 0; f < Tile::numel; ++f) {
    auto c = coords(f, d);
    c[size_t(ax)] = d[size_t(ax)] - 1 - c[size_t(ax)];
    ASSERT_EQ(r.elems[f], t.elems[flat(c, d)]) << "element " << f;
  }
}

TEST(Flip, EveryAxisOfRanksOneToThree) {
  auto a = iota_tile<tl::tile<int, 16>>(3);
  check_flip<0>(a);
  check_flip<-1>(a);
  EXPECT_EQ(tl::detail::at(tl::flip(a), 0), a.elems[15]); // no axis: the last one
  auto b = iota_tile<tl::tile<float, 4, 8>>(1);
  check_flip<0>(b);
  check_flip<1>(b);
  check_flip<-2>(b);
  auto flipped_rows = tl::flip(b);
  EXPECT_EQ(tl::detail::at(flipped_rows, 0), b.elems[7]);  // row 0 reversed
  EXPECT_EQ(tl::detail::at(flipped_rows, 8), b.elems[15]); // row 1 reversed
  auto c = iota_tile<tl::tile<int8_t, 2, 4, 8>>(1);
  check_flip<0>(c);
  check_flip<1>(c);
  check_flip<2>(c);
  check_flip<-3>(c);
  auto unit = iota_tile<tl::tile<double, 1, 8>>(2);
  check_flip<0>(unit); // one element along the axis: unchanged
  check_flip<1>(unit);
}

TEST(Flip, PointerTilesAndTwiceIsIdentity) {
  float data[8] = {};
  auto p = data + tl::arange<0, 8>();
  auto q = tl::flip(p);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(q.elems[i], data + 7 - i);
  auto b = iota_tile<tl::tile<uint16_t, 8, 4>>(5);
  auto back = tl::flip<0>(tl::flip<0>(b));
  for (int i = 0; i < b.numel; ++i)
    EXPECT_EQ(back.elems[i], b.elems[i]);
}

/// Reference gather: out at coordinates c is src at c with idx's value along the axis.
template <int AXIS, class Src, class Idx> void check_gather(const Src &src, const Idx &idx) {
  SCOPED_TRACE(testing::Message() << "rank " << Src::rank << " axis " << AXIS);
  const auto r = tl::gather<AXIS>(src, idx);
  static_assert(std::is_same_v<typename decltype(r)::element_type, typename Src::element_type>);
  static_assert(std::is_same_v<typename decltype(r)::shape, typename Idx::shape>);
  const auto ds = dims3<Src>(), dx = dims3<Idx>();
  const int ax = 3 - Src::rank + (AXIS < 0 ? AXIS + Src::rank : AXIS);
  for (int f = 0; f < Idx::numel; ++f) {
    auto c = coords(f, dx);
    c[size_t(ax)] = int(idx.elems[f]);
    ASSERT_EQ(r.elems[f], src.elems[flat(c, ds)]) << "element " << f;
  }
}

template <class Idx> Idx random_index(int n, unsigned seed) {
  auto v = random_ints<typename Idx::element_type>(Idx::numel, 0, n - 1, seed);
  Idx t;
  for (int i = 0; i < Idx::numel; ++i)
    t.elems[i] = v[size_t(i)];
  return t;
}

TEST(Gather, EveryAxisAndIndexType) {
  auto a = iota_tile<tl::tile<float, 16>>(2);
  check_gather<0>(a, random_index<tl::tile<int32_t, 16>>(16, 1));
  check_gather<0>(a, random_index<tl::tile<uint8_t, 64>>(16, 2)); // more indices than values
  check_gather<-1>(a, random_index<tl::tile<int64_t, 4>>(16, 3));
  auto b = iota_tile<tl::tile<int, 8, 16>>(1);
  check_gather<0>(b, random_index<tl::tile<int16_t, 2, 16>>(8, 4));
  check_gather<1>(b, random_index<tl::tile<uint32_t, 8, 32>>(16, 5));
  check_gather<-2>(b, random_index<tl::tile<uint64_t, 8, 16>>(8, 6));
  auto c = iota_tile<tl::tile<tl::half, 2, 4, 8>>(1);
  check_gather<0>(c, random_index<tl::tile<int, 4, 4, 8>>(2, 7));
  check_gather<1>(c, random_index<tl::tile<int8_t, 2, 2, 8>>(4, 8));
  check_gather<2>(c, random_index<tl::tile<int, 2, 4, 16>>(8, 9));
  tl::tile<bool, 4> pick_second;
  for (auto &x : pick_second.elems)
    x = true;
  check_gather<0>(tl::arange<10, 12>(), pick_second); // bool is an integer (Triton's int1)
}

TEST(Gather, IndexOutOfRangeThrowsNamingIt) {
  auto src = tl::arange<0, 8>();
  auto idx = tl::arange<0, 4>() * 3; // 0, 3, 6, 9
  try {
    (void)tl::gather<0>(src, idx);
    FAIL() << "no error for index 9";
  } catch (const tl::out_of_bounds_error &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("tl::gather index out of range"), std::string::npos) << msg;
    EXPECT_NE(msg.find("index element (3) is 9, valid 0..7 along axis 0"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("indexed_test.cpp"), std::string::npos) << msg; // the caller's line
  }
  EXPECT_THROW((void)tl::gather<0>(src, tl::arange<0, 4>() - 1), tl::out_of_bounds_error);
}

/// Reference histogram: bins of width 1 from 0; values outside and masked-off lanes count
/// nowhere.
template <int BINS, class T> std::vector<int> ref_histogram(const T *v, const bool *m, int n) {
  std::vector<int> h(BINS, 0);
  for (int i = 0; i < n; ++i) {
    const long long x = static_cast<long long>(v[i]);
    if ((!m || m[i]) && x >= 0 && x < BINS)
      ++h[size_t(x)];
  }
  return h;
}

template <int BINS, class Result>
void expect_bins(const Result &got, const std::vector<int> &want) {
  static_assert(std::is_same_v<Result, tl::tile<int32_t, BINS>>);
  for (int b = 0; b < BINS; ++b)
    ASSERT_EQ(got.elems[b], want[size_t(b)]) << "bin " << b;
}

TEST(Histogram, MasksAndValuesOutsideTheBins) {
  auto v = random_ints<int32_t>(256, -3, 19, 11);
  tl::tile<int32_t, 256> x;
  tl::tile<bool, 256> m;
  for (int i = 0; i < 256; ++i)
    x.elems[i] = v[size_t(i)], m.elems[i] = i % 3 != 0;
  expect_bins<16>(tl::histogram<16>(x), ref_histogram<16>(x.elems, nullptr, 256));
  expect_bins<16>(tl::histogram<16>(x, m), ref_histogram<16>(x.elems, m.elems, 256));
  expect_bins<16>(tl::histogram<16>(x, x < 5), [&] {
    tl::tile<bool, 256> lt = x < 5;
    return ref_histogram<16>(x.elems, lt.elems, 256);
  }());
  auto none = tl::histogram<16>(x, false);
  for (int b = 0; b < 16; ++b)
    EXPECT_EQ(none.elems[b], 0);
  // More bins than values, fewer bins than values' range.
  expect_bins<512>(tl::histogram<512>(x), ref_histogram<512>(x.elems, nullptr, 256));
  expect_bins<2>(tl::histogram<2>(x), ref_histogram<2>(x.elems, nullptr, 256));
}

TEST(Histogram, ValueTypes) {
  auto u = tl::arange<0, 64>() * 5; // 0, 5, ..., 315
  auto big = tl::cast<uint64_t>(u) + (uint64_t(1) << 40);
  auto h = tl::histogram<8>(tl::cast<uint64_t>(u) % uint64_t(11));
  tl::tile<uint64_t, 64> mod11 = tl::cast<uint64_t>(u) % uint64_t(11);
  expect_bins<8>(h, ref_histogram<8>(mod11.elems, nullptr, 64));
  auto none = tl::histogram<8>(big); // far outside the bins
  for (int b = 0; b < 8; ++b)
    EXPECT_EQ(none.elems[b], 0);
  auto s = tl::cast<int8_t>(tl::arange<0, 32>() - 16);
  expect_bins<16>(tl::histogram<16>(s), ref_histogram<16>(s.elems, nullptr, 32));
  auto odd = (tl::arange<0, 32>() & 1) == 1;
  auto hb = tl::histogram<2>(odd);
  EXPECT_EQ(hb.elems[0], 16);
  EXPECT_EQ(hb.elems[1], 16);
}

/// Every line of `t` along AXIS, sorted by `less`, then its first `keep` elements: what
/// tl::sort / tl::topk must give, element for element, as bits.
template <int AXIS, class Tile, class R, class Less>
void check_sorted(const Tile &t, const R &r, int keep, Less less) {
  const auto d = dims3<Tile>();
  const int ax = 3 - Tile::rank + (AXIS < 0 ? AXIS + Tile::rank : AXIS);
  auto dr = d;
  dr[size_t(ax)] = keep;
  using T = typename Tile::element_type;
  for (int f = 0; f < Tile::numel; ++f) {
    auto c = coords(f, d);
    if (c[size_t(ax)] != 0)
      continue;
    std::vector<T> line;
    for (int k = 0; k < d[size_t(ax)]; ++k) {
      auto ck = c;
      ck[size_t(ax)] = k;
      line.push_back(t.elems[flat(ck, d)]);
    }
    std::sort(line.begin(), line.end(), less);
    for (int k = 0; k < keep; ++k) {
      auto ck = c;
      ck[size_t(ax)] = k;
      const T got = r.elems[flat(ck, dr)];
      ASSERT_EQ(std::memcmp(&got, &line[size_t(k)], sizeof(T)), 0)
          << "line of element " << f << ", position " << k;
    }
  }
}

TEST(Sort, EveryAxisBothOrdersAndTopk) {
  auto a = iota_tile<tl::tile<int, 16>>(-3); // descending values: the sort reverses them
  check_sorted<0>(a, tl::sort(a), 16, std::less<int>());
  check_sorted<0>(a, tl::sort<0, true>(a), 16, std::greater<int>());
  check_sorted<0>(a, tl::topk<4>(a), 4, std::greater<int>());
  EXPECT_EQ(tl::sort(a).elems[0], 15 * -3 - 7);
  tl::tile<float, 4, 8> b;
  auto v = random_floats(32, -2, 2, 61);
  for (int i = 0; i < 32; ++i)
    b.elems[i] = v[size_t(i)];
  check_sorted<1>(b, tl::sort(b), 8, std::less<float>());
  check_sorted<0>(b, tl::sort<0>(b), 4, std::less<float>());
  check_sorted<-2>(b, tl::sort<-2, true>(b), 4, std::greater<float>());
  check_sorted<1>(b, tl::topk<2>(b), 2, std::greater<float>());
  check_sorted<0>(b, tl::topk<1, 0>(b), 1, std::greater<float>());
  static_assert(std::is_same_v<decltype(tl::topk<2>(b)), tl::tile<float, 4, 2>>);
  static_assert(std::is_same_v<decltype(tl::topk<2, 0>(b)), tl::tile<float, 2, 8>>);
  auto c = iota_tile<tl::tile<int8_t, 2, 4, 8>>(-1);
  check_sorted<0>(c, tl::sort<0>(c), 2, std::less<int8_t>());
  check_sorted<1>(c, tl::sort<1, true>(c), 4, std::greater<int8_t>());
  check_sorted<2>(c, tl::sort<2>(c), 8, std::less<int8_t>());
  check_sorted<1>(c, tl::topk<2, 1>(c), 2, std::greater<int8_t>());
  auto u = iota_tile<tl::tile<uint16_t, 8, 4>>(5);
  check_sorted<0>(u, tl::sort<0, true>(u), 8, std::greater<uint16_t>());
}

TEST(Sort, ZerosInfinitiesAndNaNsInATotalOrder) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = INFINITY;
  tl::tile<float, 8> t;
  const float v[8] = {1.0f, nan, 0.0f, -inf, -0.0f, inf, -nan, -1.0f};
  for (int i = 0; i < 8; ++i)
    t.elems[i] = v[i];
  auto up = tl::sort(t), down = tl::sort<0, true>(t);
  // -NaN first, then -inf ... -0, +0 ... +inf, then NaN: by sign and magnitude.
  EXPECT_TRUE(std::isnan(up.elems[0]) && std::signbit(up.elems[0]));
  EXPECT_EQ(up.elems[1], -inf);
  EXPECT_EQ(up.elems[2], -1.0f);
  EXPECT_TRUE(up.elems[3] == 0.0f && std::signbit(up.elems[3]));
  EXPECT_TRUE(up.elems[4] == 0.0f && !std::signbit(up.elems[4]));
  EXPECT_EQ(up.elems[5], 1.0f);
  EXPECT_EQ(up.elems[6], inf);
  EXPECT_TRUE(std::isnan(up.elems[7]) && !std::signbit(up.elems[7]));
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(std::memcmp(&down.elems[i], &up.elems[7 - i], 4), 0) << i;
  tl::tile<tl::bfloat16, 4> h;
  const float hv[4] = {2.0f, -0.0f, -3.0f, 0.0f};
  for (int i = 0; i < 4; ++i)
    h.elems[i] = tl::bfloat16(hv[i]);
  auto hs = tl::sort(h);
  EXPECT_EQ(hs.elems[0].bits, tl::bfloat16(-3.0f).bits);
  EXPECT_EQ(hs.elems[1].bits, tl::bfloat16(-0.0f).bits);
  EXPECT_EQ(hs.elems[2].bits, tl::bfloat16(0.0f).bits);
  EXPECT_EQ(hs.elems[3].bits, tl::bfloat16(2.0f).bits);
}

// ---- the GPU test's kernels ----

TEST(IndexedKernels, Flip) {
  constexpr int B = 128;
  for (int n : {1, 1000}) {
    auto x = random_floats(n, -1, 1, 21);
    Rows<float> out(1, n);
    tilec::interpret::launch(flip_1d<B>, grid_for(n, B), x.data(), out.row(0), n);
    for (int i = 0; i < n; ++i) {
      const int block = i / B * B, j = block + B - 1 - i % B; // the element that lands at i
      ASSERT_EQ(out.at(0, i), j < n ? x[size_t(j)] : -1.0f) << n << ": " << i;
    }
    EXPECT_TRUE(out.guards_intact()) << n;
  }
  constexpr int R = 8, C = 32;
  const int rows = 21, cols = 27; // three blocks, the last partial; columns masked too
  auto x = random_ints<int>(rows * cols, -50, 50, 22);
  Rows<int> by_rows(1, rows * C), by_cols(1, rows * C);
  tilec::interpret::launch(flip_2d<R, C>, grid_for(rows, R), x.data(), by_rows.row(0),
                           by_cols.row(0), rows, cols);
  auto at = [&](int r, int c) { return r < rows && c < cols ? x[size_t(r * cols + c)] : -1; };
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < C; ++c) {
      const int mirrored_row = r / R * R + R - 1 - r % R;
      ASSERT_EQ(by_rows.at(0, r * C + c), at(r, C - 1 - c)) << r << "," << c;
      ASSERT_EQ(by_cols.at(0, r * C + c), at(mirrored_row, c)) << r << "," << c;
    }
  EXPECT_TRUE(by_rows.guards_intact() && by_cols.guards_intact());
}

TEST(IndexedKernels, Gather) {
  constexpr int B = 64;
  const int n = 150;
  auto x = random_floats(n, -1, 1, 31);
  auto idx = random_ints<uint16_t>(n, 0, B - 1, 32);
  Rows<float> out(1, n);
  tilec::interpret::launch(gather_1d<B, uint16_t>, grid_for(n, B), x.data(), idx.data(), out.row(0),
                           n);
  for (int i = 0; i < n; ++i) {
    const int j = i / B * B + idx[size_t(i)];
    ASSERT_EQ(out.at(0, i), j < n ? x[size_t(j)] : -1.0f) << i;
  }
  EXPECT_TRUE(out.guards_intact());

  constexpr int R = 16, C = 32, K = 8;
  const int rows = 13, cols = 30;
  auto v = random_floats(rows * cols, -4, 4, 33);
  auto ri = random_ints<int64_t>(K * C, 0, R - 1, 34);
  auto ci = random_ints<uint8_t>(R * K, 0, C - 1, 35);
  Rows<float> picked_rows(1, K * C), picked_cols(1, R * K), maxima(1, R);
  tilec::interpret::launch(gather_2d<R, C, K>, tilec::Grid{1}, v.data(), ri.data(), ci.data(),
                           picked_rows.row(0), picked_cols.row(0), maxima.row(0), rows, cols);
  auto at = [&](int r, int c) { return r < rows && c < cols ? v[size_t(r * cols + c)] : -1.0f; };
  for (int k = 0; k < K; ++k)
    for (int c = 0; c < C; ++c)
      ASSERT_EQ(picked_rows.at(0, k * C + c), at(int(ri[size_t(k * C + c)]), c)) << k << "," << c;
  for (int r = 0; r < R; ++r)
    for (int k = 0; k < K; ++k)
      ASSERT_EQ(picked_cols.at(0, r * K + k), at(r, ci[size_t(r * K + k)])) << r << "," << k;
  for (int r = 0; r < R; ++r) {
    float m = at(R - 1 - r, 0);
    for (int c = 1; c < C; ++c)
      m = std::max(m, at(R - 1 - r, c));
    ASSERT_EQ(maxima.at(0, r), m) << r;
  }
  EXPECT_TRUE(picked_rows.guards_intact() && picked_cols.guards_intact() && maxima.guards_intact());
}

TEST(IndexedKernels, Rank3) {
  constexpr int A = 2, B = 4, C = 8, K = 16;
  auto x = random_floats(A * B * C, -1, 1, 41);
  auto idx = random_ints<int>(A * K * C, 0, B - 1, 42);
  Rows<float> mid(1, A * B * C), first(1, A * B * C), gathered(1, A * K * C);
  tilec::interpret::launch(rank3_indexed<A, B, C, K>, tilec::Grid{1}, x.data(), idx.data(),
                           mid.row(0), first.row(0), gathered.row(0));
  for (int i = 0; i < A; ++i)
    for (int j = 0; j < B; ++j)
      for (int k = 0; k < C; ++k) {
        const int f = (i * B + j) * C + k;
        ASSERT_EQ(mid.at(0, f), x[size_t((i * B + B - 1 - j) * C + k)]) << f;
        ASSERT_EQ(first.at(0, f), x[size_t(((A - 1 - i) * B + j) * C + k)]) << f;
      }
  for (int i = 0; i < A; ++i)
    for (int j = 0; j < K; ++j)
      for (int k = 0; k < C; ++k) {
        const int f = (i * K + j) * C + k;
        ASSERT_EQ(gathered.at(0, f), x[size_t((i * B + idx[size_t(f)]) * C + k)]) << f;
      }
  EXPECT_TRUE(mid.guards_intact() && first.guards_intact() && gathered.guards_intact());
}

/// Bits of a float, so that NaNs and zeros compare exactly.
uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

/// The sort's order of floats: by sign and magnitude (tl/sort.h).
bool float_before(float x, float y) {
  auto key = [](float f) {
    const uint32_t b = bits_of(f);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
  };
  return key(x) < key(y);
}

TEST(IndexedKernels, Sort) {
  constexpr int B = 64;
  const int n = 150; // three programs, the last partial (its tail loads +inf)
  auto x = random_floats(n, -1, 1, 71);
  x[3] = -0.0f, x[5] = 0.0f, x[70] = std::numeric_limits<float>::quiet_NaN(), x[71] = -INFINITY;
  for (bool desc : {false, true}) {
    Rows<float> out(1, n);
    tilec::interpret::launch(desc ? sort_1d<B, true> : sort_1d<B, false>, grid_for(n, B),
                             x.data(), out.row(0), n);
    for (int p = 0; p * B < n; ++p) {
      std::vector<float> line(B, INFINITY);
      std::copy(x.begin() + p * B, x.begin() + std::min(n, p * B + B), line.begin());
      std::sort(line.begin(), line.end(), float_before);
      if (desc)
        std::reverse(line.begin(), line.end());
      for (int i = p * B; i < std::min(n, p * B + B); ++i)
        ASSERT_EQ(bits_of(out.at(0, i)), bits_of(line[size_t(i - p * B)])) << desc << ": " << i;
    }
    EXPECT_TRUE(out.guards_intact());
  }

  constexpr int R = 8, C = 32, K = 4;
  const int rows = 13; // two programs, the second partial
  auto hv = random_floats(rows * C, -8, 8, 72);
  std::vector<tl::half> h(hv.begin(), hv.end());
  auto ints = random_ints<int>(rows * C, -1000, 1000, 73);
  Rows<tl::half> top(1, rows * K);
  Rows<int> sorted(1, rows * C);
  tilec::interpret::launch(sort_2d<R, C, K>, grid_for(rows, R), h.data(), ints.data(), top.row(0),
                           sorted.row(0), rows);
  for (int r = 0; r < rows; ++r) {
    std::vector<float> line;
    for (int c = 0; c < C; ++c)
      line.push_back(float(h[size_t(r * C + c)]));
    std::sort(line.begin(), line.end(), std::greater<float>());
    for (int k = 0; k < K; ++k)
      ASSERT_EQ(float(top.at(0, r * K + k)), line[size_t(k)]) << r << "," << k;
  }
  for (int c = 0; c < C; ++c)
    for (int p = 0; p * R < rows; ++p) {
      std::vector<int> col(R, 0); // rows past the data load 0
      for (int r = p * R; r < std::min(rows, p * R + R); ++r)
        col[size_t(r - p * R)] = ints[size_t(r * C + c)];
      std::sort(col.begin(), col.end());
      for (int r = p * R; r < std::min(rows, p * R + R); ++r)
        ASSERT_EQ(sorted.at(0, r * C + c), col[size_t(r - p * R)]) << r << "," << c;
    }
  EXPECT_TRUE(top.guards_intact() && sorted.guards_intact());

  constexpr int A = 2, BB = 8, CC = 4;
  auto bytes = random_ints<int8_t>(A * BB * CC, -128, 127, 74);
  Rows<int8_t> out3(1, A * BB * CC);
  tilec::interpret::launch(rank3_sort<A, BB, CC>, tilec::Grid{1}, bytes.data(), out3.row(0));
  for (int i = 0; i < A; ++i)
    for (int k = 0; k < CC; ++k) {
      std::vector<int8_t> line;
      for (int j = 0; j < BB; ++j)
        line.push_back(bytes[size_t((i * BB + j) * CC + k)]);
      std::sort(line.begin(), line.end(), std::greater<int8_t>());
      for (int j = 0; j < BB; ++j)
        ASSERT_EQ(out3.at(0, (i * BB + j) * CC + k), line[size_t(j)]) << i << "," << j << "," << k;
    }
  EXPECT_TRUE(out3.guards_intact());
}

TEST(IndexedKernels, Histogram) {
  constexpr int B = 256, BINS = 16;
  const int n = 1000; // four programs, the last partial
  auto x = random_ints<int>(n, -2, BINS + 2, 51);
  const int programs = (n + B - 1) / B;
  Rows<int> per_program(1, programs * BINS);
  std::vector<int> total(BINS, 0);
  tilec::interpret::launch(histogram_1d<B, BINS>, grid_for(n, B), x.data(), per_program.row(0),
                           total.data(), n);
  std::vector<int> sum(BINS, 0);
  for (int p = 0; p < programs; ++p) {
    const int len = std::min(B, n - p * B);
    auto want = ref_histogram<BINS>(x.data() + p * B, nullptr, len);
    for (int b = 0; b < BINS; ++b) {
      ASSERT_EQ(per_program.at(0, p * BINS + b), want[size_t(b)]) << p << ": bin " << b;
      sum[size_t(b)] += want[size_t(b)];
    }
  }
  EXPECT_EQ(total, sum);
  EXPECT_TRUE(per_program.guards_intact());

  constexpr int R = 16, C = 32;
  auto v = random_floats(R * C, -1, 1, 52);
  auto bytes = random_ints<uint8_t>(R * C, 0, 255, 53);
  Rows<int> where(1, C), counts(1, 256);
  tilec::interpret::launch(histogram_2d<R, C>, tilec::Grid{1}, v.data(), bytes.data(), where.row(0),
                           counts.row(0));
  std::vector<int> argmax(R);
  for (int r = 0; r < R; ++r)
    for (int c = 1; c < C; ++c)
      if (v[size_t(r * C + c)] > v[size_t(r * C + argmax[size_t(r)])])
        argmax[size_t(r)] = c;
  auto want_where = ref_histogram<C>(argmax.data(), nullptr, R);
  auto want_bytes = ref_histogram<256>(bytes.data(), nullptr, R * C);
  for (int c = 0; c < C; ++c)
    ASSERT_EQ(where.at(0, c), want_where[size_t(c)]) << c;
  for (int b = 0; b < 256; ++b)
    ASSERT_EQ(counts.at(0, b), want_bytes[size_t(b)]) << b;
  EXPECT_TRUE(where.guards_intact() && counts.guards_intact());
}

} // namespace
