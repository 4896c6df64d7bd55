// FlagGems' softmax, var_mean, L2 norm, cumsum, LayerNorm and weight norm, Mamba's selective
// state update and gated LayerNorm, and Triton tutorials 04 (dropout) and 07 (asin)
// (kernels/flaggems_*.cpp, kernels/mamba_*.cpp, kernels/triton_tutorials_misc.cpp) in the
// interpreter against double-precision references. Sizes are not multiples of the blocks, every
// output starts poisoned (NaN) and is checked element by element, and the poison past the end
// of each output (or in a row's padding) must survive. Buffers go through the checked launch,
// so an access outside one is an error naming it. Multi-kernel operations are launched in the
// order the originals' host code launches them.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/flaggems_cumsum.cpp"
#include "kernels/flaggems_softmax.cpp"
#include "kernels/flaggems_var_mean.cpp"
#include "kernels/flaggems_vector_norm.cpp"
#include "kernels/flaggems_weight_norm.cpp"
#include "kernels/mamba_layernorm_gated.cpp"
#include "kernels/mamba_selective_state_update.cpp"
#include "kernels/triton_tutorials_misc.cpp"
// Both FlagGems files define the helper prev_multiple_of: the second lives in a namespace
// here (its kernels are templates, so nothing else changes).
namespace flaggems_ln {
#include "kernels/flaggems_layer_norm.cpp"
}

using namespace corpus;
using tilec::interpret::checked;

namespace {

constexpr int kPad = 37; // poisoned elements after every output

/// n outputs followed by kPad more, all poisoned.
std::vector<float> out_buffer(size_t n) { return poisoned(n + kPad); }

/// The kPad elements after the first n still hold the poison.
::testing::AssertionResult tail_intact(const std::vector<float> &v, size_t n,
                                       const std::string &what) {
  for (size_t i = n; i < v.size(); ++i)
    if (!untouched(v[i]))
      return ::testing::AssertionFailure() << what << "[" << i << "] written past the end";
  return ::testing::AssertionSuccess();
}

/// An optional pointer argument (Triton's None): v, checked, when ON, else a null pointer.
template <bool ON, class T> auto opt(std::vector<T> &v, const char *name) {
  if constexpr (ON)
    return checked(v, name);
  else
    return static_cast<T *>(nullptr);
}

uint32_t u32(int v) { return uint32_t(v); }
int cdiv(int a, int b) { return (a + b - 1) / b; }
int next_pow2(int v) {
  int p = 1;
  while (p < v)
    p *= 2;
  return p;
}

// ---------------------------------------------------------------------------------------
// softmax

/// softmax along N of an [M, N, K] tensor, in double.
std::vector<double> softmax_ref(const std::vector<float> &x, int M, int N, int K) {
  std::vector<double> y(x.size());
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) {
      auto at = [&](int n) { return (size_t(m) * N + n) * K + k; };
      double mx = -INFINITY, z = 0;
      for (int n = 0; n < N; ++n)
        mx = std::max(mx, double(x[at(n)]));
      for (int n = 0; n < N; ++n)
        z += std::exp(double(x[at(n)]) - mx);
      for (int n = 0; n < N; ++n)
        y[at(n)] = std::exp(double(x[at(n)]) - mx) / z;
    }
  return y;
}

/// softmax's input gradient: y * (dy - sum(y * dy)) along N, in double.
std::vector<double> softmax_bwd_ref(const std::vector<float> &y, const std::vector<float> &dy,
                                    int M, int N, int K) {
  std::vector<double> dx(y.size());
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) {
      auto at = [&](int n) { return (size_t(m) * N + n) * K + k; };
      double s = 0;
      for (int n = 0; n < N; ++n)
        s += double(y[at(n)]) * dy[at(n)];
      for (int n = 0; n < N; ++n)
        dx[at(n)] = y[at(n)] * (dy[at(n)] - s);
    }
  return dx;
}

/// An input with some -inf entries (the kernels' all_neg_inf case), never a whole row.
std::vector<float> softmax_input(size_t n, unsigned seed) {
  auto x = uniform(n, -4, 4, seed);
  for (size_t i = 3; i < n; i += 97)
    x[i] = -INFINITY;
  return x;
}

void expect_all_close(const std::vector<float> &got, const std::vector<double> &want, double abs,
                      double rel, const char *what) {
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_TRUE(close(got[i], want[i], abs, rel, what, i));
  ASSERT_TRUE(tail_intact(got, want.size(), what));
}

TEST(CorpusFlagGemsMamba, SoftmaxInner) {
  const int M = 37, N = 1000;
  auto x = softmax_input(size_t(M) * N, 11);
  auto want = softmax_ref(x, M, N, 1);
  {
    SCOPED_TRACE("one tile per program");
    auto y = out_buffer(x.size());
    tilec::interpret::launch(softmax_kernel_inner<float, float, 1024, true>, tilec::Grid{u32(M)},
                             checked(y, "y"), checked(x, "x"), M, N);
    expect_all_close(y, want, 1e-7, 1e-5, "y");
  }
  {
    SCOPED_TRACE("online softmax over 256-wide tiles");
    auto y = out_buffer(x.size());
    tilec::interpret::launch(softmax_kernel_inner<float, float, 256, false>, tilec::Grid{u32(M)},
                             checked(y, "y"), checked(x, "x"), M, N);
    expect_all_close(y, want, 1e-7, 1e-5, "y");
  }
}

TEST(CorpusFlagGemsMamba, SoftmaxNonInner) {
  const int M = 3, N = 37, K = 45, TILE_K = 4;
  auto x = softmax_input(size_t(M) * N * K, 12);
  auto want = softmax_ref(x, M, N, K);
  const tilec::Grid grid{u32(M), u32(cdiv(K, TILE_K))};
  {
    SCOPED_TRACE("one tile per program");
    auto y = out_buffer(x.size());
    tilec::interpret::launch(softmax_kernel_non_inner<float, float, 64, TILE_K, true>, grid,
                             checked(y, "y"), checked(x, "x"), M, N, K);
    expect_all_close(y, want, 1e-7, 1e-5, "y");
  }
  {
    SCOPED_TRACE("online softmax over 16-row tiles");
    auto y = out_buffer(x.size());
    tilec::interpret::launch(softmax_kernel_non_inner<float, float, 16, TILE_K, false>, grid,
                             checked(y, "y"), checked(x, "x"), M, N, K);
    expect_all_close(y, want, 1e-7, 1e-5, "y");
  }
}

TEST(CorpusFlagGemsMamba, SoftmaxBackwardInner) {
  const int M = 37, N = 1000, TILE_M = 4;
  auto y = uniform(size_t(M) * N, 0, 0.01f, 13), dy = uniform(y.size(), -1, 1, 14);
  auto want = softmax_bwd_ref(y, dy, M, N, 1);
  const tilec::Grid grid{u32(cdiv(M, TILE_M))};
  {
    SCOPED_TRACE("one tile per program");
    auto dx = out_buffer(y.size());
    tilec::interpret::launch(softmax_backward_kernel_inner<float, TILE_M, 1024, true>, grid,
                             checked(y, "y"), checked(dy, "dy"), checked(dx, "dx"), M, N);
    expect_all_close(dx, want, 1e-7, 1e-5, "dx");
  }
  {
    SCOPED_TRACE("256-wide tiles");
    auto dx = out_buffer(y.size());
    tilec::interpret::launch(softmax_backward_kernel_inner<float, TILE_M, 256, false>, grid,
                             checked(y, "y"), checked(dy, "dy"), checked(dx, "dx"), M, N);
    expect_all_close(dx, want, 1e-7, 1e-5, "dx");
  }
}

TEST(CorpusFlagGemsMamba, SoftmaxBackwardNonInner) {
  const int M = 3, N = 37, K = 45, TILE_K = 4;
  auto y = uniform(size_t(M) * N * K, 0, 0.05f, 15), dy = uniform(y.size(), -1, 1, 16);
  auto want = softmax_bwd_ref(y, dy, M, N, K);
  const tilec::Grid grid{u32(M), u32(cdiv(K, TILE_K))};
  {
    SCOPED_TRACE("one tile per program");
    auto dx = out_buffer(y.size());
    tilec::interpret::launch(softmax_backward_kernel_non_inner<float, 64, TILE_K, true>, grid,
                             checked(y, "y"), checked(dy, "dy"), checked(dx, "dx"), M, N, K);
    expect_all_close(dx, want, 1e-7, 1e-5, "dx");
  }
  {
    SCOPED_TRACE("16-row tiles");
    auto dx = out_buffer(y.size());
    tilec::interpret::launch(softmax_backward_kernel_non_inner<float, 16, TILE_K, false>, grid,
                             checked(y, "y"), checked(dy, "dy"), checked(dx, "dx"), M, N, K);
    expect_all_close(dx, want, 1e-7, 1e-5, "dx");
  }
}

// ---------------------------------------------------------------------------------------
// var_mean and the L2 norm

TEST(CorpusFlagGemsMamba, VarMeanWelfordRows) {
  const int M = 37, N = 1000;
  constexpr int BLOCK_M = 4, BLOCK_N = 256;
  const float correction = 1.0f;
  auto x = uniform(size_t(M) * N, -3, 5, 21);
  auto var = out_buffer(M), mean = out_buffer(M);
  tilec::interpret::launch(var_mean_welford_kernel<float, BLOCK_M, BLOCK_N>,
                           tilec::Grid{u32(cdiv(M, BLOCK_M))}, checked(x, "x"), checked(var, "var"),
                           checked(mean, "mean"), M, N, correction);
  for (int m = 0; m < M; ++m) {
    double mu = 0, ss = 0;
    for (int n = 0; n < N; ++n)
      mu += x[size_t(m) * N + n];
    mu /= N;
    for (int n = 0; n < N; ++n)
      ss += (x[size_t(m) * N + n] - mu) * (x[size_t(m) * N + n] - mu);
    ASSERT_TRUE(close(mean[m], mu, 1e-5, 1e-5, "mean", m));
    ASSERT_TRUE(close(var[m], ss / (N - correction), 1e-5, 1e-4, "var", m));
  }
  ASSERT_TRUE(tail_intact(mean, M, "mean"));
  ASSERT_TRUE(tail_intact(var, M, "var"));
}

TEST(CorpusFlagGemsMamba, VarMeanWholeTensor) {
  const int N = 10007, BLOCK_N = 1024, BLOCK_NUM = cdiv(N, BLOCK_N);
  constexpr int BLOCK_N2 = 16; // next_power_of_2(BLOCK_NUM), FlagGems' heuristic
  ASSERT_EQ(next_pow2(BLOCK_NUM), BLOCK_N2);
  const float correction = 0.0f;
  auto x = uniform(N, -1, 3, 22);
  auto acc = out_buffer(BLOCK_NUM), average = out_buffer(BLOCK_NUM), count = out_buffer(BLOCK_NUM);
  auto var = out_buffer(1), mean = out_buffer(1);
  tilec::interpret::launch(var_mean_kernel_1<float, 1024>, tilec::Grid{u32(BLOCK_NUM)},
                           checked(x, "x"), checked(acc, "acc"), checked(average, "average"),
                           checked(count, "count"), N);
  tilec::interpret::launch(var_mean_kernel_2<float, BLOCK_N2>, tilec::Grid{1}, checked(acc, "acc"),
                           checked(average, "average"), checked(count, "count"),
                           checked(var, "var"), checked(mean, "mean"), N, correction, BLOCK_NUM);
  for (int b = 0; b < BLOCK_NUM; ++b) {
    const int lo = b * BLOCK_N, hi = std::min(N, lo + BLOCK_N);
    double s = 0, ss = 0;
    for (int i = lo; i < hi; ++i)
      s += x[i];
    const double avg = s / (hi - lo);
    for (int i = lo; i < hi; ++i)
      ss += (x[i] - avg) * (x[i] - avg);
    ASSERT_TRUE(close(count[b], hi - lo, 0, 0, "count", b));
    ASSERT_TRUE(close(average[b], avg, 1e-6, 1e-5, "average", b));
    ASSERT_TRUE(close(acc[b], ss, 1e-2, 1e-4, "acc", b));
  }
  double mu = 0, ss = 0;
  for (int i = 0; i < N; ++i)
    mu += x[i];
  mu /= N;
  for (int i = 0; i < N; ++i)
    ss += (x[i] - mu) * (x[i] - mu);
  ASSERT_TRUE(close(mean[0], mu, 1e-6, 1e-5, "mean", 0));
  ASSERT_TRUE(close(var[0], ss / (N - correction), 1e-5, 1e-4, "var", 0));
  for (auto *v : {&acc, &average, &count})
    ASSERT_TRUE(tail_intact(*v, BLOCK_NUM, "partials"));
  ASSERT_TRUE(tail_intact(mean, 1, "mean"));
  ASSERT_TRUE(tail_intact(var, 1, "var"));
}

TEST(CorpusFlagGemsMamba, L2NormRows) {
  const int M = 37, N = 1000;
  constexpr int BLOCK_M = 4, BLOCK_N = 256;
  auto x = uniform(size_t(M) * N, -2, 2, 23);
  auto out = out_buffer(M);
  tilec::interpret::launch(l2_norm_kernel<float, BLOCK_M, BLOCK_N>,
                           tilec::Grid{u32(cdiv(M, BLOCK_M))}, checked(x, "x"), checked(out, "out"),
                           M, N);
  for (int m = 0; m < M; ++m) {
    double s = 0;
    for (int n = 0; n < N; ++n)
      s += double(x[size_t(m) * N + n]) * x[size_t(m) * N + n];
    ASSERT_TRUE(close(out[m], std::sqrt(s), 1e-6, 1e-5, "norm", m));
  }
  ASSERT_TRUE(tail_intact(out, M, "norm"));
}

TEST(CorpusFlagGemsMamba, L2NormWholeTensor) {
  const int M = 10007;
  constexpr int BLOCK_SIZE = 128; // next_power_of_2(ceil(sqrt(M))), as the host computes
  ASSERT_EQ(next_pow2(int(std::ceil(std::sqrt(double(M))))), BLOCK_SIZE);
  const int MID_SIZE = cdiv(M, BLOCK_SIZE);
  constexpr int BLOCK_MID = 128;
  ASSERT_EQ(next_pow2(MID_SIZE), BLOCK_MID);
  auto x = uniform(M, -2, 2, 24);
  auto mid = out_buffer(MID_SIZE), out = out_buffer(1);
  tilec::interpret::launch(l2_norm_kernel_1<float, BLOCK_SIZE>, tilec::Grid{u32(MID_SIZE)},
                           checked(x, "x"), checked(mid, "mid"), M);
  tilec::interpret::launch(l2_norm_kernel_2<float, BLOCK_MID>, tilec::Grid{1}, checked(mid, "mid"),
                           checked(out, "out"), MID_SIZE);
  double total = 0;
  for (int b = 0; b < MID_SIZE; ++b) {
    double s = 0;
    for (int i = b * BLOCK_SIZE; i < std::min(M, (b + 1) * BLOCK_SIZE); ++i)
      s += double(x[i]) * x[i];
    ASSERT_TRUE(close(mid[b], s, 1e-5, 1e-5, "mid", b));
    total += s;
  }
  ASSERT_TRUE(close(out[0], std::sqrt(total), 1e-5, 1e-5, "norm", 0));
  ASSERT_TRUE(tail_intact(mid, MID_SIZE, "mid"));
  ASSERT_TRUE(tail_intact(out, 1, "norm"));
}

// ---------------------------------------------------------------------------------------
// cumsum

/// FlagGems' scan_then_fan_col for float data: BLOCK_SIZE chosen as the host does, the
/// partial sums scanned recursively in place (the sizes the test reaches only).
void scan_then_fan_col(const float *inp, float *out, int n_ele) {
  auto launch_with = [&](auto part_kernel, auto add_kernel, int block) {
    const int part_num = cdiv(n_ele, block);
    std::vector<float> partial_sum = poisoned(size_t(part_num));
    tilec::interpret::launch(part_kernel, tilec::Grid{u32(part_num)}, checked(inp, n_ele, "inp"),
                             checked(out, n_ele, "out"), checked(partial_sum, "partial_sum"), n_ele,
                             part_num);
    if (part_num >= 2) {
      scan_then_fan_col(partial_sum.data(), partial_sum.data(), part_num);
      tilec::interpret::launch(add_kernel, tilec::Grid{u32(part_num)}, checked(out, n_ele, "out"),
                               checked(partial_sum, "partial_sum"), n_ele, part_num);
    }
  };
  if (n_ele > 1024 * 4)
    launch_with(scan_part_sum_kernel<float, float, float, float, 1024>,
                add_base_sum_kernel<float, float, 1024>, 1024);
  else if (next_pow2(n_ele) == 8)
    launch_with(scan_part_sum_kernel<float, float, float, float, 8>,
                add_base_sum_kernel<float, float, 8>, 8);
  else
    FAIL() << "no specialization for " << n_ele;
}

TEST(CorpusFlagGemsMamba, CumsumFlatScanThenFan) {
  const int n = 3001 + 1024 * 4; // above 4096: 1024-element blocks, 7 partial sums, recursion
  auto x = uniform(n, -1, 1, 31);
  auto y = out_buffer(n);
  scan_then_fan_col(x.data(), y.data(), n);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i];
    ASSERT_TRUE(close(y[i], s, 1e-4, 1e-5, "y", i));
  }
  ASSERT_TRUE(tail_intact(y, n, "y"));
}

TEST(CorpusFlagGemsMamba, CumsumFlatIntegers) {
  // int32 input: scanned in int32, written as int64 (FlagGems' output type for integers)
  const int n = 2500;
  constexpr int BLOCK = 1024;
  const int part_num = cdiv(n, BLOCK);
  auto x = tilec_test::random_ints<int32_t>(n, -1000, 1000, 32);
  std::vector<int64_t> y(n + kPad, -7), partial(size_t(part_num), -7);
  tilec::interpret::launch(scan_part_sum_kernel<int32_t, int64_t, int64_t, int32_t, BLOCK>,
                           tilec::Grid{u32(part_num)}, checked(x, "x"), checked(y, "y"),
                           checked(partial, "partial"), n, part_num);
  // the partial sums (3 of them) scanned in place with one block of 4
  std::vector<int64_t> partial2(1, -7);
  tilec::interpret::launch(scan_part_sum_kernel<int64_t, int64_t, int64_t, int64_t, 4>,
                           tilec::Grid{1}, checked(partial, "partial"), checked(partial, "partial"),
                           checked(partial2, "partial2"), part_num, 1);
  tilec::interpret::launch(add_base_sum_kernel<int64_t, int64_t, BLOCK>, tilec::Grid{u32(part_num)},
                           checked(y, "y"), checked(partial, "partial"), n, part_num);
  int64_t s = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i];
    ASSERT_EQ(y[i], s) << "i=" << i;
  }
  ASSERT_EQ(partial2[0], s);
  for (int i = n; i < n + kPad; ++i)
    ASSERT_EQ(y[i], -7) << "written past the end at " << i;
}

TEST(CorpusFlagGemsMamba, CumsumMiddleDimScanThenFan) {
  // [A, B, C] with the scan along B: 1024-element blocks, then the [A, part_num, C] partial
  // sums scanned the same way, in place (one block of 8), then the fan-out.
  const int A = 3, B = 5000, C = 5;
  constexpr int BLOCK = 1024, BLOCK2 = 8;
  const int part_num = cdiv(B, BLOCK);
  ASSERT_EQ(next_pow2(part_num), BLOCK2);
  auto x = uniform(size_t(A) * B * C, -1, 1, 33);
  auto y = out_buffer(x.size());
  auto partial = poisoned(size_t(A) * part_num * C), partial2 = poisoned(size_t(A) * C);
  tilec::interpret::launch(scan_part_sum_abc_kernel<float, float, float, float, BLOCK>,
                           tilec::Grid{u32(A), u32(part_num), u32(C)}, checked(x, "x"),
                           checked(y, "y"), checked(partial, "partial"), B, C, part_num);
  tilec::interpret::launch(scan_part_sum_abc_kernel<float, float, float, float, BLOCK2>,
                           tilec::Grid{u32(A), 1, u32(C)}, checked(partial, "partial"),
                           checked(partial, "partial"), checked(partial2, "partial2"), part_num, C,
                           1);
  tilec::interpret::launch(add_base_sum_abc_kernel<float, float, BLOCK>,
                           tilec::Grid{u32(A), u32(part_num), u32(C)}, checked(y, "y"),
                           checked(partial, "partial"), B, C, part_num);
  for (int a = 0; a < A; ++a)
    for (int c = 0; c < C; ++c) {
      double s = 0;
      for (int b = 0; b < B; ++b) {
        const size_t i = (size_t(a) * B + b) * C + c;
        s += x[i];
        ASSERT_TRUE(close(y[i], s, 1e-4, 1e-5, "y", i));
      }
      ASSERT_TRUE(close(partial2[size_t(a) * C + c], s, 1e-4, 1e-5, "total", size_t(a) * C + c));
    }
  ASSERT_TRUE(tail_intact(y, x.size(), "y"));
}

TEST(CorpusFlagGemsMamba, CumsumRowsReduceThenScan) {
  // Rows too long for one tile: num_ctas chunks of tiles_per_cta tiles per row (a GPU with
  // few SMs: num_ctas 5 for 12 tiles), their sums scanned by the root kernel (one tile of
  // 8), then each chunk's scan offset by the previous chunks' sum.
  const int M = 4, N = 3001;
  constexpr int TILE = 256, ROOT_TILE = 8;
  const int num_tiles = cdiv(N, TILE), num_ctas = 5, tiles_per_cta = cdiv(num_tiles, num_ctas);
  ASSERT_EQ(next_pow2(num_ctas), ROOT_TILE);
  auto x = uniform(size_t(M) * N, -1, 1, 34);
  auto y = out_buffer(x.size());
  auto block_sums = poisoned(size_t(M) * num_ctas), prefix = poisoned(size_t(M) * num_ctas);
  tilec::interpret::launch(reduce_then_scan_block_sum_kernel_row<float, float, float, TILE>,
                           tilec::Grid{u32(M), u32(num_ctas)}, checked(x, "x"),
                           checked(block_sums, "block_sums"), N, tiles_per_cta);
  tilec::interpret::launch(reduce_then_scan_root_scan_kernel_row<float, float, float, ROOT_TILE>,
                           tilec::Grid{u32(M)}, checked(block_sums, "block_sums"),
                           checked(prefix, "prefix"), num_ctas);
  tilec::interpret::launch(reduce_then_scan_block_scan_kernel_row<float, float, float, float, TILE>,
                           tilec::Grid{u32(M), u32(num_ctas)}, checked(x, "x"),
                           checked(prefix, "prefix"), checked(y, "y"), N, num_ctas, tiles_per_cta);
  for (int m = 0; m < M; ++m) {
    double s = 0;
    for (int n = 0; n < N; ++n) {
      const size_t i = size_t(m) * N + n;
      s += x[i];
      ASSERT_TRUE(close(y[i], s, 1e-4, 1e-5, "y", i));
      if ((n + 1) % (tiles_per_cta * TILE) == 0 || n == N - 1) {
        const int chunk = n / (tiles_per_cta * TILE);
        ASSERT_TRUE(close(prefix[size_t(m) * num_ctas + chunk], s, 1e-4, 1e-5, "prefix", chunk));
      }
    }
  }
  ASSERT_TRUE(tail_intact(y, x.size(), "y"));
}

TEST(CorpusFlagGemsMamba, CumsumRowsOneTile) {
  // Rows up to 16384 long: the root kernel alone, one tile per row; float and int32 input
  const int M = 5, N = 1000;
  constexpr int TILE = 1024;
  auto x = uniform(size_t(M) * N, -1, 1, 35);
  auto y = out_buffer(x.size());
  tilec::interpret::launch(reduce_then_scan_root_scan_kernel_row<float, float, float, TILE>,
                           tilec::Grid{u32(M)}, checked(x, "x"), checked(y, "y"), N);
  auto xi = tilec_test::random_ints<int32_t>(M * N, -100000, 100000, 36);
  std::vector<int64_t> yi(size_t(M) * N + kPad, -7);
  tilec::interpret::launch(reduce_then_scan_root_scan_kernel_row<int32_t, int64_t, int64_t, TILE>,
                           tilec::Grid{u32(M)}, checked(xi, "xi"), checked(yi, "yi"), N);
  for (int m = 0; m < M; ++m) {
    double s = 0;
    int64_t si = 0;
    for (int n = 0; n < N; ++n) {
      const size_t i = size_t(m) * N + n;
      s += x[i];
      si += xi[i];
      ASSERT_TRUE(close(y[i], s, 1e-4, 1e-5, "y", i));
      ASSERT_EQ(yi[i], si) << "i=" << i;
    }
  }
  ASSERT_TRUE(tail_intact(y, x.size(), "y"));
  for (size_t i = size_t(M) * N; i < yi.size(); ++i)
    ASSERT_EQ(yi[i], -7) << "written past the end at " << i;
}

// ---------------------------------------------------------------------------------------
// FlagGems LayerNorm forward

/// y, mean, rstd of the rows of x ([M, N]) in double.
void check_layer_norm(const std::vector<float> &x, const std::vector<float> &w,
                      const std::vector<float> &b, bool has_w, bool has_b, int M, int N, float eps,
                      const std::vector<float> &y, const std::vector<float> &mean,
                      const std::vector<float> &rstd) {
  for (int m = 0; m < M; ++m) {
    const float *xr = &x[size_t(m) * N];
    double mu = 0, var = 0;
    for (int n = 0; n < N; ++n)
      mu += xr[n];
    mu /= N;
    for (int n = 0; n < N; ++n)
      var += (xr[n] - mu) * (xr[n] - mu);
    const double rs = 1 / std::sqrt(var / N + eps);
    ASSERT_TRUE(close(mean[m], mu, 1e-6, 1e-5, "mean", m));
    ASSERT_TRUE(close(rstd[m], rs, 1e-6, 1e-5, "rstd", m));
    for (int n = 0; n < N; ++n) {
      const double want = (xr[n] - mu) * rs * (has_w ? w[n] : 1.0) + (has_b ? b[n] : 0.0);
      ASSERT_TRUE(close(y[size_t(m) * N + n], want, 1e-5, 1e-5, "y", size_t(m) * N + n));
    }
  }
  ASSERT_TRUE(tail_intact(y, size_t(M) * N, "y"));
  ASSERT_TRUE(tail_intact(mean, M, "mean"));
  ASSERT_TRUE(tail_intact(rstd, M, "rstd"));
}

template <bool HW, bool HB> void run_flaggems_layer_norm() {
  SCOPED_TRACE(std::string("weight ") + (HW ? "yes" : "no") + ", bias " + (HB ? "yes" : "no"));
  const float eps = 1e-5f;
  using namespace flaggems_ln;
  auto inputs = [](int M, int N) {
    return std::array<std::vector<float>, 3>{uniform(size_t(M) * N, -3, 5, 41),
                                             uniform(N, -1, 1, 42), uniform(N, -1, 1, 43)};
  };
  {
    SCOPED_TRACE("multiline (N <= 128)");
    const int M = 29, N = 100;
    constexpr int TILE_N = 128, TILE_M = 8; // next_power_of_2(N), cdiv(1024, TILE_N)
    auto [x, w, b] = inputs(M, N);
    auto y = out_buffer(x.size()), mean = out_buffer(M), rstd = out_buffer(M);
    tilec::interpret::launch(
        layer_norm_persistent_kernel_multiline<float, float, TILE_M, TILE_N, HW, HB>,
        tilec::Grid{u32(cdiv(M, TILE_M))}, checked(x, "x"), checked(y, "y"), opt<HW>(w, "w"),
        opt<HB>(b, "b"), checked(mean, "mean"), checked(rstd, "rstd"), M, N, eps);
    check_layer_norm(x, w, b, HW, HB, M, N, eps, y, mean, rstd);
  }
  {
    SCOPED_TRACE("persistent (N <= 4096)");
    const int M = 29, N = 777;
    auto [x, w, b] = inputs(M, N);
    auto y = out_buffer(x.size()), mean = out_buffer(M), rstd = out_buffer(M);
    tilec::interpret::launch(layer_norm_persistent_kernel<float, float, 1024, HW, HB>,
                             tilec::Grid{u32(M)}, checked(x, "x"), checked(y, "y"), opt<HW>(w, "w"),
                             opt<HB>(b, "b"), checked(mean, "mean"), checked(rstd, "rstd"), M, N,
                             eps);
    check_layer_norm(x, w, b, HW, HB, M, N, eps, y, mean, rstd);
  }
  {
    SCOPED_TRACE("loop (Welford over 256-wide tiles)");
    const int M = 7, N = 1000;
    auto [x, w, b] = inputs(M, N);
    auto y = out_buffer(x.size()), mean = out_buffer(M), rstd = out_buffer(M);
    tilec::interpret::launch(layer_norm_loop_kernel<float, float, 256, HW, HB>, tilec::Grid{u32(M)},
                             checked(x, "x"), checked(y, "y"), opt<HW>(w, "w"), opt<HB>(b, "b"),
                             checked(mean, "mean"), checked(rstd, "rstd"), M, N, eps);
    check_layer_norm(x, w, b, HW, HB, M, N, eps, y, mean, rstd);
  }
}

TEST(CorpusFlagGemsMamba, FlagGemsLayerNorm) {
  run_flaggems_layer_norm<true, true>();
  run_flaggems_layer_norm<false, false>();
  run_flaggems_layer_norm<true, false>();
}

// ---------------------------------------------------------------------------------------
// weight norm

TEST(CorpusFlagGemsMamba, WeightNormFirstAndLast) {
  const float eps = std::numeric_limits<float>::min(); // torch.finfo(torch.float32).tiny
  const int M = 37, N = 300;
  auto v = uniform(size_t(M) * N, -1, 1, 51);
  {
    SCOPED_TRACE("dim 0: a norm per row");
    constexpr int BR = 4, BC = 64;
    auto g = uniform(M, 0.5f, 2, 52);
    auto out = out_buffer(v.size()), norm = out_buffer(M);
    tilec::interpret::launch(weight_norm_kernel_first<float, BR, BC>, tilec::Grid{u32(cdiv(M, BR))},
                             checked(out, "out"), checked(norm, "norm"), checked(v, "v"),
                             checked(g, "g"), M, N, eps);
    for (int m = 0; m < M; ++m) {
      double s = 0;
      for (int n = 0; n < N; ++n)
        s += double(v[size_t(m) * N + n]) * v[size_t(m) * N + n];
      const double nm = std::sqrt(s + eps);
      ASSERT_TRUE(close(norm[m], nm, 1e-6, 1e-5, "norm", m));
      for (int n = 0; n < N; ++n) {
        const size_t i = size_t(m) * N + n;
        ASSERT_TRUE(close(out[i], g[m] * v[i] / nm, 1e-6, 1e-5, "out", i));
      }
    }
    ASSERT_TRUE(tail_intact(out, v.size(), "out"));
    ASSERT_TRUE(tail_intact(norm, M, "norm"));
  }
  auto last = [&](auto kernel, int BC) {
    auto g = uniform(N, 0.5f, 2, 53);
    auto out = out_buffer(v.size()), norm = out_buffer(N);
    tilec::interpret::launch(kernel, tilec::Grid{u32(cdiv(N, BC))}, checked(out, "out"),
                             checked(norm, "norm"), checked(v, "v"), checked(g, "g"), M, N, eps);
    for (int n = 0; n < N; ++n) {
      double s = 0;
      for (int m = 0; m < M; ++m)
        s += double(v[size_t(m) * N + n]) * v[size_t(m) * N + n];
      const double nm = std::sqrt(s + eps);
      ASSERT_TRUE(close(norm[n], nm, 1e-6, 1e-5, "norm", n));
      for (int m = 0; m < M; ++m) {
        const size_t i = size_t(m) * N + n;
        ASSERT_TRUE(close(out[i], g[n] * v[i] / nm, 1e-6, 1e-5, "out", i));
      }
    }
    ASSERT_TRUE(tail_intact(out, v.size(), "out"));
    ASSERT_TRUE(tail_intact(norm, N, "norm"));
  };
  {
    SCOPED_TRACE("last dim: a norm per column, 4 columns per program");
    last(weight_norm_kernel_last<float, 16, 4>, 4);
  }
  {
    SCOPED_TRACE("last dim: one column per program ([1, 64] tiles)");
    last(weight_norm_kernel_last<float, 64, 1>, 1);
  }
}

// ---------------------------------------------------------------------------------------
// Mamba: selective state update

template <bool SP, bool TIE, bool HDB, bool HD, bool HZ, bool HI> void run_ssu() {
  SCOPED_TRACE(std::string("softplus ") + (SP ? "1" : "0") + " tie_hdim " + (TIE ? "1" : "0") +
               " dt_bias " + (HDB ? "1" : "0") + " D " + (HD ? "1" : "0") + " z " +
               (HZ ? "1" : "0") + " state_batch_indices " + (HI ? "1" : "0"));
  const int batch = 3, nheads = 4, ngroups = 2, dim = 50, dstate = 13;
  const int nstates = 5; // state rows (with indices: picked per batch entry)
  constexpr int BLOCK_M = 32, BLOCK_DSTATE = 16; // the host's choice for dstate <= 16
  const int ratio = nheads / ngroups;
  // Layouts: state [nstates, nheads, dim, dstate]; x, dt, z, out [batch, nheads, dim] with x's
  // batch stride padded; A [nheads, dim, dstate]; B, C [batch, ngroups, dstate]; D, dt_bias
  // [nheads, dim]. With TIE_HDIM, dt is [batch, nheads] and A, dt_bias [nheads], broadcast
  // along dim (and dstate) by zero strides, as the host passes them.
  const int xb = nheads * dim + 7;
  auto state = uniform(size_t(nstates) * nheads * dim * dstate, -1, 1, 61);
  const auto state0 = state;
  auto x = uniform(size_t(batch) * xb, -1, 1, 62);
  auto dt = uniform(size_t(batch) * nheads * (TIE ? 1 : dim), -3, 1, 63);
  auto dt_bias = uniform(size_t(nheads) * (TIE ? 1 : dim), -0.5f, 0.5f, 64);
  auto A = uniform(size_t(nheads) * (TIE ? 1 : dim * dstate), -2, -0.1f, 65);
  auto B = uniform(size_t(batch) * ngroups * dstate, -1, 1, 66);
  auto C = uniform(size_t(batch) * ngroups * dstate, -1, 1, 67);
  auto D = uniform(size_t(nheads) * dim, -1, 1, 68);
  auto z = uniform(size_t(batch) * nheads * dim, -2, 2, 69);
  if (SP) // some dt above the softplus threshold (20), which stay as they are
    for (size_t i = 0; i < dt.size(); i += 5)
      dt[i] = 21.0f + float(i % 3);
  std::vector<int32_t> indices = {4, -1, 1}; // batch entry 1 is a padding token
  auto out = out_buffer(size_t(batch) * nheads * dim);

  const std::vector<int> strides = {nheads * dim * dstate,
                                    dim * dstate,
                                    dstate,
                                    1, // state
                                    xb,
                                    dim,
                                    1, // x
                                    TIE ? nheads : nheads * dim,
                                    TIE ? 1 : dim,
                                    TIE ? 0 : 1, // dt
                                    TIE ? 1 : dim,
                                    TIE ? 0 : 1, // dt_bias
                                    TIE ? 1 : dim * dstate,
                                    TIE ? 0 : dstate,
                                    TIE ? 0 : 1, // A
                                    ngroups * dstate,
                                    dstate,
                                    1, // B
                                    ngroups * dstate,
                                    dstate,
                                    1, // C
                                    dim,
                                    1, // D
                                    nheads * dim,
                                    dim,
                                    1, // z
                                    nheads * dim,
                                    dim,
                                    1}; // out
  ASSERT_EQ(strides.size(), 29u);
  spread<29>(strides, [&](auto... stride) {
    tilec::interpret::launch(
        _selective_scan_update_kernel<float, float, float, SP, TIE, BLOCK_M, HDB, HD, HZ, HI,
                                      BLOCK_DSTATE>,
        tilec::Grid{u32(cdiv(dim, BLOCK_M)), u32(batch), u32(nheads)}, checked(state, "state"),
        checked(x, "x"), checked(dt, "dt"), opt<HDB>(dt_bias, "dt_bias"), checked(A, "A"),
        checked(B, "B"), checked(C, "C"), opt<HD>(D, "D"), opt<HZ>(z, "z"), checked(out, "out"),
        opt<HI>(indices, "indices"), batch, nheads, dim, dstate, ratio, stride...);
  });

  auto want_state = state0;
  for (int b = 0; b < batch; ++b)
    for (int h = 0; h < nheads; ++h) {
      const int s = HI ? indices[b] : b;
      const int g = h / ratio;
      for (int d = 0; d < dim; ++d) {
        const size_t o = (size_t(b) * nheads + h) * dim + d;
        if (s < 0) {
          ASSERT_EQ(out[o], 0.0f) << "padding token's out[" << o << "]";
          continue;
        }
        double dtv = TIE ? dt[size_t(b) * nheads + h] : dt[o];
        if (HDB)
          dtv += TIE ? dt_bias[h] : dt_bias[size_t(h) * dim + d];
        if (SP && dtv <= 20.0)
          dtv = std::log(std::exp(dtv) + 1);
        const double xv = x[size_t(b) * xb + size_t(h) * dim + d];
        double acc = 0;
        for (int n = 0; n < dstate; ++n) {
          const size_t si = ((size_t(s) * nheads + h) * dim + d) * dstate + n;
          const double a = TIE ? A[h] : A[(size_t(h) * dim + d) * dstate + n];
          const double bv = B[(size_t(b) * ngroups + g) * dstate + n];
          const double cv = C[(size_t(b) * ngroups + g) * dstate + n];
          const double ns = state0[si] * std::exp(a * dtv) + bv * dtv * xv;
          want_state[si] = float(ns);
          ASSERT_TRUE(close(state[si], ns, 1e-5, 1e-5, "state", si));
          acc += ns * cv;
        }
        if (HD)
          acc += xv * D[size_t(h) * dim + d];
        if (HZ) {
          const double zv = z[o];
          acc *= zv / (1 + std::exp(-zv));
        }
        ASSERT_TRUE(close(out[o], acc, 1e-5, 1e-5, "out", o));
      }
    }
  // state rows no batch entry points at keep their values
  for (size_t i = 0; i < state.size(); ++i)
    if (want_state[i] == state0[i]) {
      ASSERT_EQ(state[i], state0[i]) << "state[" << i << "] changed";
    }
  ASSERT_TRUE(tail_intact(out, size_t(batch) * nheads * dim, "out"));
}

TEST(CorpusFlagGemsMamba, MambaSelectiveStateUpdate) {
  run_ssu<true, false, true, true, true, false>();
  run_ssu<true, false, true, true, true, true>();
  run_ssu<false, false, false, false, false, false>();
  run_ssu<true, true, true, true, true, false>();
  run_ssu<false, true, false, true, false, true>();
}

// ---------------------------------------------------------------------------------------
// Mamba: gated LayerNorm / RMSNorm

template <bool HB, bool HZ, bool NBG, bool RMS> void run_gated_norm() {
  SCOPED_TRACE(std::string("bias ") + (HB ? "1" : "0") + " z " + (HZ ? "1" : "0") +
               " norm_before_gate " + (NBG ? "1" : "0") + " rms " + (RMS ? "1" : "0"));
  const int M = 7, group_size = 300, ngroups = 2, N = group_size * ngroups;
  const int sx = N + 5, sy = N + 3, sz = N + 9;
  constexpr int BLOCK_N = 512; // next_power_of_2(group_size)
  const float eps = 1e-6f;
  auto x = uniform(size_t(M) * sx, -2, 3, 71), z = uniform(size_t(M) * sz, -2, 2, 72);
  auto w = uniform(N, -1, 1, 73), b = uniform(N, -1, 1, 74);
  auto y = poisoned(size_t(M) * sy), mean = out_buffer(size_t(ngroups) * M);
  auto rstd = out_buffer(size_t(ngroups) * M);
  tilec::interpret::launch(_layer_norm_fwd_1pass_kernel<float, float, BLOCK_N, HB, HZ, NBG, RMS>,
                           tilec::Grid{u32(M), u32(ngroups)}, checked(x, "x"), checked(y, "y"),
                           checked(w, "w"), opt<HB>(b, "b"), opt<HZ>(z, "z"),
                           opt<!RMS>(mean, "Mean"), checked(rstd, "rstd"), sx, sy, sz, M,
                           group_size, eps);
  auto silu = [](double v) { return v / (1 + std::exp(-v)); };
  for (int m = 0; m < M; ++m)
    for (int g = 0; g < ngroups; ++g) {
      std::vector<double> xv(group_size);
      for (int c = 0; c < group_size; ++c) {
        const int col = g * group_size + c;
        xv[c] = x[size_t(m) * sx + col];
        if (HZ && !NBG)
          xv[c] *= silu(z[size_t(m) * sz + col]);
      }
      double mu = 0, var = 0;
      if (!RMS) {
        for (double v : xv)
          mu += v;
        mu /= group_size;
      }
      for (double v : xv)
        var += (v - mu) * (v - mu);
      var /= group_size;
      const double rs = 1 / std::sqrt(var + eps);
      if (!RMS) {
        ASSERT_TRUE(close(mean[size_t(g) * M + m], mu, 1e-6, 1e-5, "mean", size_t(g) * M + m));
      }
      ASSERT_TRUE(close(rstd[size_t(g) * M + m], rs, 1e-6, 1e-5, "rstd", size_t(g) * M + m));
      for (int c = 0; c < group_size; ++c) {
        const int col = g * group_size + c;
        double want = (xv[c] - mu) * rs * w[col] + (HB ? b[col] : 0.0);
        if (HZ && NBG)
          want *= silu(z[size_t(m) * sz + col]);
        ASSERT_TRUE(close(y[size_t(m) * sy + col], want, 1e-5, 1e-5, "y", size_t(m) * sy + col));
      }
    }
  for (int m = 0; m < M; ++m)
    for (int c = N; c < sy; ++c)
      ASSERT_TRUE(untouched(y[size_t(m) * sy + c])) << "row padding written at " << m << "," << c;
  // RMSNorm writes no mean: the whole buffer keeps its poison
  ASSERT_TRUE(tail_intact(mean, RMS ? 0 : size_t(ngroups) * M, "mean"));
  ASSERT_TRUE(tail_intact(rstd, size_t(ngroups) * M, "rstd"));
}

TEST(CorpusFlagGemsMamba, MambaGatedLayerNorm) {
  run_gated_norm<true, true, true, false>();
  run_gated_norm<true, true, false, false>();
  run_gated_norm<false, true, false, true>();
  run_gated_norm<false, true, true, true>();
  run_gated_norm<true, false, false, false>();
  run_gated_norm<false, false, true, true>();
}

// ---------------------------------------------------------------------------------------
// Triton tutorial 04: dropout with a stored mask

TEST(CorpusFlagGemsMamba, TutorialDropoutWithKeepMask) {
  const int n = 3001;
  const float p = 0.3f;
  auto x = uniform(n, -2, 2, 81);
  auto keep = tilec_test::random_ints<int32_t>(n, 0, 1, 82);
  auto out = out_buffer(n);
  tilec::interpret::launch(_dropout<1024>, tilec::Grid{u32(cdiv(n, 1024))}, checked(x, "x"),
                           checked(keep, "keep"), checked(out, "out"), n, p);
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    kept += keep[i] != 0;
    ASSERT_TRUE(close(out[i], keep[i] ? x[i] / (1.0 - p) : 0.0, 1e-6, 1e-6, "out", i));
  }
  ASSERT_GT(kept, n / 3);
  ASSERT_LT(kept, 2 * n / 3);
  ASSERT_TRUE(tail_intact(out, n, "out"));
}

TEST(CorpusFlagGemsMamba, TutorialAsin) {
  const int n = 3001;
  auto x = uniform(n, -1, 1, 83);
  auto y = out_buffer(n);
  tilec::interpret::launch(asin_kernel<1024>, tilec::Grid{u32(cdiv(n, 1024))}, checked(x, "x"),
                           checked(y, "y"), n);
  for (int i = 0; i < n; ++i)
    ASSERT_TRUE(close(y[i], std::asin(double(x[i])), 1e-6, 1e-6, "y", i));
  ASSERT_TRUE(tail_intact(y, n, "y"));
}

} // namespace
