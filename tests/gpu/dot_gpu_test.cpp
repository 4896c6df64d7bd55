// tl::dot on the GPU against a double reference: every operand type, register operands and
// pipelined loops, sizes that are not multiples of the tile, outputs poisoned first.
#include "dot.tilec.h"
#include "gpu_test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <type_traits>

namespace {

template <class T> std::vector<T> random_matrix(size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<T> v(count);
  if constexpr (std::is_integral_v<T>) {
    std::uniform_int_distribution<int> d(-128, 127);
    for (T &x : v)
      x = T(d(rng));
  } else if constexpr (sizeof(T) == 1) {
    // fp8: multiples of 1/8 in [-1, 1], exact in both formats (see the fp8 tests below).
    std::uniform_int_distribution<int> d(-8, 8);
    for (T &x : v)
      x = T(float(d(rng)) / 8);
  } else {
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    for (T &x : v)
      x = T(d(rng));
  }
  return v;
}

template <class T> double as_double(T x) {
  if constexpr (std::is_integral_v<T> || std::is_floating_point_v<T>)
    return double(x);
  else
    return double(float(x));
}

/// Compares c (m x n) with a @ b; `rel` is the allowed error relative to sum |a||b|.
template <class T, class Acc>
void expect_product(const std::vector<T> &a, const std::vector<T> &b, const std::vector<Acc> &c,
                    int m, int n, int k, double rel, const std::string &what) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double ref = 0, mag = 0;
      for (int p = 0; p < k; ++p) {
        double x = as_double(a[size_t(i) * k + p]) * as_double(b[size_t(p) * n + j]);
        ref += x, mag += std::fabs(x);
      }
      double got = double(c[size_t(i) * n + j]);
      ASSERT_LE(std::fabs(got - ref), rel * mag + 1e-6)
          << what << " at (" << i << ", " << j << "): got " << got << ", want " << ref;
    }
}

template <int BM, int BN, int BK, class T, class Acc, bool IEEE = false>
void check_tile(int m, int n, int k, int num_warps, double rel) {
  auto a = random_matrix<T>(size_t(m) * k, 1 + m), b = random_matrix<T>(size_t(k) * n, 2 + n);
  tilec_test::DeviceBuffer da(a.size() * sizeof(T)), db(b.size() * sizeof(T)),
      dc(size_t(m) * n * sizeof(Acc));
  da.upload(a), db.upload(b);
  dc.fill(0xff);
  dot_tile<BM, BN, BK, T, Acc, IEEE>(tilec::Grid{1}, nullptr, da.as<T>(), db.as<T>(), dc.as<Acc>(),
                                     m, n, k, {.num_warps = num_warps});
  tilec_test::synchronize();
  expect_product(a, b, dc.download<Acc>(), m, n, k, rel,
                 "dot_tile " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                     std::to_string(k));
}

template <int BM, int BN, int BK, class T, class Acc>
void check_loop(int m, int n, int k, int num_warps, int num_stages, double rel) {
  auto a = random_matrix<T>(size_t(m) * k, 3 + k), b = random_matrix<T>(size_t(k) * n, 4 + m);
  tilec_test::DeviceBuffer da(a.size() * sizeof(T)), db(b.size() * sizeof(T)),
      dc(size_t(m) * n * sizeof(Acc));
  da.upload(a), db.upload(b);
  dc.fill(0xff);
  tilec::Grid grid{uint32_t((m + BM - 1) / BM), uint32_t((n + BN - 1) / BN)};
  dot_loop<BM, BN, BK, T, Acc>(grid, nullptr, da.as<T>(), db.as<T>(), dc.as<Acc>(), m, n, k,
                               {.num_warps = num_warps, .num_stages = num_stages});
  tilec_test::synchronize();
  expect_product(a, b, dc.download<Acc>(), m, n, k, rel,
                 "dot_loop " + std::to_string(m) + "x" + std::to_string(n) + "x" +
                     std::to_string(k) + " stages " + std::to_string(num_stages));
}

/// Stores the k x m (or n x k) transpose of a row-major m x k matrix.
template <class T> std::vector<T> transposed(const std::vector<T> &x, int rows, int cols) {
  std::vector<T> t(x.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      t[size_t(c) * rows + r] = x[size_t(r) * cols + c];
  return t;
}

/// dot_loop_t / dot_loop_bt: the same product with A and/or B stored transposed.
template <int BM, int BN, int BK, class T, class Acc, bool A_T, bool B_T, bool PIPELINED = false>
void check_transposed(int m, int n, int k, int num_warps, double rel) {
  auto a = random_matrix<T>(size_t(m) * k, 5 + k), b = random_matrix<T>(size_t(k) * n, 6 + n);
  std::vector<T> as = A_T ? transposed(a, m, k) : a, bs = B_T ? transposed(b, k, n) : b;
  tilec_test::DeviceBuffer da(as.size() * sizeof(T)), db(bs.size() * sizeof(T)),
      dc(size_t(m) * n * sizeof(Acc));
  da.upload(as), db.upload(bs);
  dc.fill(0xff);
  tilec::Grid grid{uint32_t((m + BM - 1) / BM), uint32_t((n + BN - 1) / BN)};
  tilec::LaunchOptions opts{.num_warps = num_warps, .num_stages = 3};
  if constexpr (PIPELINED)
    dot_loop_bt<BM, BN, BK, T, Acc>(grid, nullptr, da.as<T>(), db.as<T>(), dc.as<Acc>(), m, n, k,
                                    opts);
  else
    dot_loop_t<BM, BN, BK, T, Acc, A_T, B_T>(grid, nullptr, da.as<T>(), db.as<T>(), dc.as<Acc>(), m,
                                             n, k, opts);
  tilec_test::synchronize();
  expect_product(a, b, dc.download<Acc>(), m, n, k, rel,
                 std::string(PIPELINED ? "dot_loop_bt " : "dot_loop_t ") + (A_T ? "a^T " : "") +
                     (B_T ? "b^T " : "") + std::to_string(m) + "x" + std::to_string(n) + "x" +
                     std::to_string(k));
}

/// dot_loop_offsets / dot_loop_wnk / dot_loop_stride / dot_loop_wnk_ptrs: c = a @ b spelled
/// four other ways (SPELLING 0 to 3); the wnk kernels take b stored transposed ([n, k]).
template <int BM, int BN, int BK, class T, class Acc, int SPELLING>
void check_spelling(int m, int n, int k, int num_warps, int num_stages, double rel) {
  auto a = random_matrix<T>(size_t(m) * k, 9 + k), b = random_matrix<T>(size_t(k) * n, 10 + n);
  std::vector<T> bs = SPELLING == 1 || SPELLING == 3 ? transposed(b, k, n) : b;
  tilec_test::DeviceBuffer da(a.size() * sizeof(T)), db(bs.size() * sizeof(T)),
      dc(size_t(m) * n * sizeof(Acc));
  da.upload(a), db.upload(bs);
  dc.fill(0xff);
  tilec::Grid grid{uint32_t((m + BM - 1) / BM), uint32_t((n + BN - 1) / BN)};
  tilec::LaunchOptions opts{.num_warps = num_warps, .num_stages = num_stages};
  const char *names[] = {"dot_loop_offsets ", "dot_loop_wnk ", "dot_loop_stride ",
                         "dot_loop_wnk_ptrs "};
  if constexpr (SPELLING == 0)
    dot_loop_offsets<BM, BN, BK, T, Acc>(grid, nullptr, da.as<T>(), db.as<T>(), dc.as<Acc>(), m, n,
                                         k, opts);
  else if constexpr (SPELLING == 1)
    dot_loop_wnk<BM, BN, BK, T, Acc>(grid, nullptr, da.as<T>(), db.as<T>(), dc.as<Acc>(), m, n, k,
                                     opts);
  else if constexpr (SPELLING == 2)
    dot_loop_stride<BM, BN, BK, T, Acc, 1>(grid, nullptr, da.as<T>(), db.as<T>(), dc.as<Acc>(), m,
                                           n, k, opts);
  else
    dot_loop_wnk_ptrs<BM, BN, BK, T, Acc>(grid, nullptr, da.as<T>(), db.as<T>(), dc.as<Acc>(), m,
                                          n, k, opts);
  tilec_test::synchronize();
  expect_product(a, b, dc.download<Acc>(), m, n, k, rel,
                 names[SPELLING] + std::to_string(m) + "x" + std::to_string(n) + "x" +
                     std::to_string(k) + " stages " + std::to_string(num_stages));
}

// fp8 tensor cores (mma.sync .e4m3/.e5m2) start with sm_89.
#define REQUIRE_SM89()                                                                             \
  do {                                                                                             \
    const auto &d = tilec::detail::driver();                                                       \
    if (d.cc_major * 10 + d.cc_minor < 89)                                                         \
      GTEST_SKIP() << "fp8 dot needs sm_89 or newer, this GPU is sm_" << d.cc_major << d.cc_minor; \
  } while (0)

TEST(GpuDot, RegisterOperands) {
  REQUIRE_GPU();
  check_tile<16, 16, 16, tl::half, float>(16, 16, 16, 1, 1e-5);
  check_tile<64, 32, 32, tl::half, float>(50, 30, 20, 4, 1e-5);
  check_tile<32, 64, 16, tl::bfloat16, float>(31, 64, 9, 4, 1e-5);
  check_tile<32, 32, 32, float, float>(29, 17, 31, 4, 2e-3);       // tf32
  check_tile<32, 32, 32, float, float, true>(29, 17, 31, 4, 1e-6); // exact float
  check_tile<32, 32, 64, int8_t, int32_t>(32, 20, 50, 4, 0);
  check_tile<128, 128, 32, tl::half, float>(128, 128, 32, 8, 1e-5);
  // On sm_90a the tiles below (and the 64-row ones above) take the wgmma path.
  check_tile<128, 64, 64, tl::half, float>(100, 60, 50, 4, 1e-5);
}

TEST(GpuDot, PipelinedLoop) {
  REQUIRE_GPU();
  check_loop<64, 64, 32, tl::half, float>(100, 70, 130, 4, 3, 1e-5);
  check_loop<64, 64, 32, tl::half, float>(64, 64, 1000, 4, 1, 1e-5); // one stage: two used
  check_loop<128, 64, 32, tl::bfloat16, float>(257, 129, 96, 8, 4, 1e-5);
  check_loop<32, 32, 16, float, float>(77, 45, 123, 4, 3, 2e-3);
  check_loop<32, 64, 64, int8_t, int32_t>(65, 96, 300, 4, 2, 0);
  // wgmma on sm_90a: m64n128 with 128-byte swizzles and B in two panels; two warpgroups
  // side by side along N; 32-byte swizzles with m64n16.
  check_loop<128, 128, 64, tl::half, float>(300, 260, 200, 4, 3, 1e-5);
  check_loop<128, 256, 64, tl::bfloat16, float>(130, 300, 150, 8, 3, 1e-5);
  check_loop<64, 16, 16, tl::half, float>(100, 40, 70, 4, 2, 1e-5);
}

// 8-bit B tiles staged [K, N] are rewritten K-major before the dot (k-major-operands): wgmma
// s8/u8 on sm_90a where a warpgroup takes 64 rows, mma.sync with ldmatrix elsewhere. Sizes
// that are not multiples of the tile, K not a multiple of BLOCK_K, one and several k-quads
// per thread in the transpose.
TEST(GpuDot, Int8KMajorStages) {
  REQUIRE_GPU();
  check_loop<128, 128, 128, int8_t, int32_t>(300, 260, 520, 4, 3, 0);
  check_loop<128, 256, 128, int8_t, int32_t>(130, 300, 300, 8, 3, 0);
  check_loop<64, 128, 64, uint8_t, int32_t>(100, 200, 200, 4, 4, 0);
  check_loop<128, 64, 128, int8_t, int32_t>(129, 65, 1000, 4, 2, 0);
  check_loop<64, 32, 32, int8_t, int32_t>(70, 40, 90, 2, 3, 0);
}

// Pipelined whatever the spelling: offsets recomputed from the loop index, B stored [n, k]
// and read as a [BK, BN] tile (through recomputed offsets or advancing pointers), a unit
// stride given as a template parameter.
TEST(GpuDot, Spellings) {
  REQUIRE_GPU();
  check_spelling<64, 64, 32, tl::half, float, 0>(100, 70, 130, 4, 3, 1e-5);
  check_spelling<128, 128, 64, tl::bfloat16, float, 0>(300, 260, 200, 4, 3, 1e-5);
  check_spelling<32, 64, 64, int8_t, int32_t, 0>(65, 96, 300, 4, 2, 0);
  check_spelling<64, 64, 32, tl::half, float, 1>(100, 70, 130, 4, 3, 1e-5);
  check_spelling<128, 128, 64, tl::bfloat16, float, 1>(300, 260, 200, 8, 3, 1e-5);
  check_spelling<128, 64, 64, tl::half, float, 1>(129, 65, 1000, 4, 4, 1e-5);
  check_spelling<32, 64, 64, int8_t, int32_t, 1>(65, 96, 300, 4, 2, 0);
  check_spelling<64, 64, 32, tl::half, float, 2>(100, 70, 130, 4, 3, 1e-5);
  check_spelling<64, 64, 32, tl::half, float, 3>(100, 70, 130, 4, 3, 1e-5);
  check_spelling<128, 128, 64, tl::bfloat16, float, 3>(300, 260, 200, 8, 3, 1e-5);
  check_spelling<32, 64, 64, int8_t, int32_t, 3>(65, 96, 300, 4, 2, 0);
}

TEST(GpuDot, RowsSharedByTwoLayouts) {
  REQUIRE_GPU();
  constexpr int BM = 64, BN = 32, BK = 32;
  const int m = 150; // three programs, the last one partial
  auto a = random_matrix<tl::half>(size_t(m) * BK, 7), b = random_matrix<tl::half>(BK * BN, 8);
  tilec_test::DeviceBuffer da(a.size() * 2), db(b.size() * 2), dc(size_t(m) * BN * 4);
  da.upload(a), db.upload(b);
  dc.fill(0xff);
  shared_rows<BM, BN, BK>(tilec::Grid{uint32_t((m + BM - 1) / BM)}, nullptr, da.as<tl::half>(),
                          db.as<tl::half>(), dc.as<float>(), m, {.num_warps = 4});
  tilec_test::synchronize();
  expect_product(a, b, dc.download<float>(), m, BN, BK, 1e-5, "shared_rows");
}

// Rows read beside a staged operand (pipeline's side loads: float and double rows through
// rank-1 stages, read in the dot result's layout), at n not a multiple of either block, with
// 2, 3 and 4 stages.
template <int BM, int BN, int D>
void check_staged_rows(int n, int num_warps, int num_stages) {
  std::mt19937 rng(11 + n + num_stages);
  std::uniform_real_distribution<float> dist(-0.5f, 0.5f);
  std::vector<tl::half> q(size_t(n) * D), k(size_t(n) * D);
  for (auto *x : {&q, &k})
    for (auto &e : *x)
      e = tl::half(dist(rng));
  std::vector<float> mx(n);
  std::vector<double> w(n);
  for (int i = 0; i < n; ++i)
    mx[i] = dist(rng), w[i] = 1.0 + dist(rng);
  tilec_test::DeviceBuffer dq(q.size() * 2), dk(k.size() * 2), dmx(mx.size() * 4),
      dw(w.size() * 8), dout(size_t(n) * BM * 4);
  dq.upload(q), dk.upload(k), dmx.upload(mx), dw.upload(w);
  dout.fill(0xff);
  staged_rows<BM, BN, D>(tilec::Grid{uint32_t((n + BN - 1) / BN)}, nullptr, dq.as<tl::half>(),
                         dk.as<tl::half>(), dmx.as<float>(), dw.as<double>(), dout.as<float>(), n,
                         {.num_warps = num_warps, .num_stages = num_stages});
  tilec_test::synchronize();
  std::vector<float> out = dout.download<float>();
  for (int j = 0; j < n; ++j)
    for (int c = 0; c < BM; ++c) {
      double ref = 0;
      for (int i = c; i < n; i += BM) {
        double s = 0;
        for (int e = 0; e < D; ++e)
          s += double(float(k[size_t(j) * D + e])) * double(float(q[size_t(i) * D + e]));
        ref += std::exp2(s - mx[i]) * w[i];
      }
      ASSERT_NEAR(out[size_t(j) * BM + c], ref, 1e-3 * (1 + std::fabs(ref)))
          << "key " << j << " column " << c << ", " << num_stages << " stages";
    }
}

TEST(GpuDot, RowsStagedBesideOperands) {
  REQUIRE_GPU();
  check_staged_rows<32, 64, 64>(333, 4, 2);
  check_staged_rows<32, 64, 64>(333, 4, 3);
  check_staged_rows<64, 128, 64>(250, 8, 4);
}

TEST(GpuDot, ReductionsOfAProduct) {
  REQUIRE_GPU();
  constexpr int BM = 64, BN = 64, BK = 32;
  auto a = random_matrix<tl::half>(BM * BK, 9), b = random_matrix<tl::half>(BK * BN, 10);
  tilec_test::DeviceBuffer da(a.size() * 2), db(b.size() * 2), dout(BM * BN * 4);
  da.upload(a), db.upload(b);
  dout.fill(0xff);
  dot_softmax<BM, BN, BK>(tilec::Grid{1}, nullptr, da.as<tl::half>(), db.as<tl::half>(),
                          dout.as<float>(), {.num_warps = 4});
  tilec_test::synchronize();
  std::vector<float> out = dout.download<float>();
  for (int i = 0; i < BM; ++i) {
    std::vector<double> row(BN);
    double mx = -1e300, total = 0;
    for (int j = 0; j < BN; ++j) {
      for (int p = 0; p < BK; ++p)
        row[j] += as_double(a[size_t(i) * BK + p]) * as_double(b[size_t(p) * BN + j]);
      mx = std::max(mx, row[j]);
    }
    for (double &x : row)
      total += (x = std::exp(x - mx));
    for (int j = 0; j < BN; ++j)
      ASSERT_NEAR(out[size_t(i) * BN + j], row[j] / total, 1e-5) << "row " << i << " col " << j;
  }
}

TEST(GpuDot, TransposedOperands) {
  REQUIRE_GPU();
  check_transposed<64, 64, 32, tl::half, float, false, true>(70, 90, 100, 4, 1e-5);
  check_transposed<64, 64, 32, tl::half, float, true, false>(70, 90, 100, 4, 1e-5);
  check_transposed<64, 64, 32, tl::bfloat16, float, true, true>(33, 65, 64, 4, 1e-5);
  check_transposed<32, 32, 16, float, float, false, true>(40, 50, 60, 4, 2e-3);
  check_transposed<32, 32, 16, float, float, true, false>(40, 50, 60, 4, 2e-3);
  check_transposed<32, 32, 64, int8_t, int32_t, false, true>(40, 50, 130, 4, 0);
  check_transposed<32, 32, 64, int8_t, int32_t, true, false>(40, 50, 130, 4, 0);
  check_transposed<32, 16, 32, tl::half, float, false, true>(40, 20, 70, 1, 1e-5); // NT = 1
  check_transposed<128, 64, 32, tl::half, float, false, true, true>(200, 150, 300, 4, 1e-5);
  check_transposed<64, 64, 64, int8_t, int32_t, false, true, true>(100, 70, 200, 4, 0);
  // wgmma on sm_90a: A read M-major across two panels; B read K-major from its rows.
  check_transposed<128, 128, 64, tl::half, float, true, false>(150, 140, 130, 4, 1e-5);
  check_transposed<128, 128, 64, tl::bfloat16, float, false, true, true>(150, 140, 130, 8, 1e-5);
}

// fp8 (sm_89 and newer): m16n8k32 with float accumulators, operands staged as for int8
// (ldmatrix for A, gathers for B unless it is transposed). The fp8 tensor cores of sm_89 and
// sm_90 are measured to keep only about 14 significant bits of their sums (truncating), so
// the data is chosen to make every sum exact: multiples of 1/8 in [-1, 1] and K < 256 give
// partial sums that are multiples of 2^-6 below 2^8. Any error is then a bug, not rounding.
TEST(GpuDot, Fp8RegisterOperands) {
  REQUIRE_GPU();
  REQUIRE_SM89();
  check_tile<16, 16, 32, tl::float8_e4m3, float>(16, 16, 32, 1, 1e-5);
  check_tile<64, 32, 64, tl::float8_e4m3, float>(50, 30, 40, 4, 1e-5);
  check_tile<32, 64, 32, tl::float8_e5m2, float>(31, 64, 9, 4, 1e-5);
  check_tile<128, 128, 64, tl::float8_e4m3, float>(100, 120, 64, 8, 1e-5);
}

TEST(GpuDot, Fp8PipelinedLoop) {
  REQUIRE_GPU();
  REQUIRE_SM89();
  check_loop<64, 64, 32, tl::float8_e4m3, float>(100, 70, 130, 4, 3, 1e-5);
  check_loop<64, 64, 64, tl::float8_e5m2, float>(65, 96, 200, 4, 2, 1e-5);
  check_loop<128, 128, 64, tl::float8_e4m3, float>(300, 260, 200, 8, 3, 1e-5);
  check_loop<32, 32, 32, tl::float8_e5m2, float>(77, 45, 123, 4, 1, 1e-5);
}

TEST(GpuDot, Fp8TransposedOperands) {
  REQUIRE_GPU();
  REQUIRE_SM89();
  check_transposed<32, 32, 64, tl::float8_e4m3, float, false, true>(40, 50, 130, 4, 1e-5);
  check_transposed<32, 32, 64, tl::float8_e4m3, float, true, false>(40, 50, 130, 4, 1e-5);
  check_transposed<64, 64, 32, tl::float8_e5m2, float, true, true>(33, 65, 64, 4, 1e-5);
  check_transposed<64, 64, 64, tl::float8_e4m3, float, false, true, true>(100, 70, 200, 4, 1e-5);
}

} // namespace
