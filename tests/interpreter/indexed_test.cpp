// tl::flip, tl::gather and tl::histogram against plain loops: every axis of rank 1-3 tiles,
// index and value types, masks, values outside the bins, an index out of range; then the
// kernels of the GPU test (tests/gpu/kernels/indexed.cpp) at sizes that are not multiples of
// their blocks. The GPU test compares the GPU with the interpreter, so this keeps that
// reference honest.
#include "support.h"

#include "indexed.cpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
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
