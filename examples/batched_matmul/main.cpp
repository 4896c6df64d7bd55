// main.cpp - checks the batched matmul kernel (batched_matmul.cpp) in fp16 against a
// double-precision CPU reference, on sizes that are not multiples of the blocks, with padded
// row strides, gaps between the matrices and a B shared across the batch (batch stride 0);
// on the GPU also 8 x 1000^3 and 32 x 1024^3, with timing (TFLOP/s).
//
//   batched_matmul [--gpu] [--interpreter]
//     --gpu          require a GPU: exit 77 ("SKIPPED") without one (for ctest)
//     --interpreter  run in the host interpreter even when a GPU is present
#include "runners.h"

#include "example_main.h"
#include "host_check.h"

#include <tilec/grid.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace example {

unsigned programs_for(const Problem &p, const Config &c) {
  return unsigned(tilec::cdiv(p.M, c.block_m) * tilec::cdiv(p.N, c.block_n));
}

} // namespace example

namespace {

using example::Config;
using example::Matrices;
using example::Problem;
using half = tl::half;

constexpr size_t kPad = 1024; // output elements past the last matrix that must stay untouched
constexpr double kMaxMacs = 1 << 28;      // above this, the reference checks a sample of rows
constexpr double kUnitRoundoff = 0x1p-11; // fp16's final rounding

/// Elements one operand spans: up to the end of the last row of the last matrix.
size_t span(const Problem &p, int64_t stride, int rows, int cols, int ld) {
  return size_t((p.batch - 1) * stride + int64_t(rows - 1) * ld + cols);
}

/// One operand: its matrices hold values in [-1, 1), everything between them NaN, so that a
/// read outside a matrix would poison C.
std::vector<half> make_operand(const Problem &p, int64_t stride, int rows, int cols, int ld,
                               example::Random &rng) {
  std::vector<half> v(span(p, stride, rows, cols, ld), half(NAN));
  const int matrices = stride == 0 ? 1 : p.batch;
  for (int b = 0; b < matrices; ++b)
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j)
        v[size_t(b * stride + int64_t(i) * ld + j)] = half(rng.next());
  return v;
}

/// (matrix, row) pairs the reference checks: all of them for small problems, else a sample
/// spread over the batch plus the last row of every matrix.
std::vector<std::pair<int, int>> rows_to_check(const Problem &p) {
  const double macs = double(p.batch) * p.M * p.N * p.K;
  const int64_t step = macs <= kMaxMacs ? 1 : int64_t(macs / kMaxMacs) + 1;
  std::vector<std::pair<int, int>> rows;
  for (int b = 0; b < p.batch; ++b)
    for (int i = 0; i < p.M; ++i)
      if ((int64_t(b) * p.M + i) % step == 0 || i == p.M - 1)
        rows.emplace_back(b, i);
  return rows;
}

/// Compares C with the reference on the checked rows, and checks that every element of every
/// C[b] was written and nothing else. Returns the number of mismatches; `worst` is the largest
/// error as a fraction of its bound.
size_t compare(const Problem &p, const std::vector<half> &a, const std::vector<half> &b,
               const std::vector<half> &c, double &worst, size_t &overwritten) {
  size_t bad = 0;
  std::vector<float> bd(size_t(p.K) * p.N); // B[b] as dense floats, for the reference
  int64_t bd_start = -1;
  std::vector<double> want(p.N), mag(p.N);
  for (auto [m, i] : rows_to_check(p)) {
    if (m * p.stride_b != bd_start) {
      bd_start = m * p.stride_b;
      for (int k = 0; k < p.K; ++k)
        for (int j = 0; j < p.N; ++j)
          bd[size_t(k) * p.N + j] = float(b[size_t(bd_start + int64_t(k) * p.ldb + j)]);
    }
    std::fill(want.begin(), want.end(), 0.0);
    std::fill(mag.begin(), mag.end(), 0.0);
    const half *arow = &a[size_t(m * p.stride_a + int64_t(i) * p.lda)];
    for (int k = 0; k < p.K; ++k) {
      const double x = float(arow[k]);
      const float *brow = &bd[size_t(k) * p.N];
      for (int j = 0; j < p.N; ++j) {
        want[j] += x * brow[j];
        mag[j] += std::fabs(x * brow[j]);
      }
    }
    const half *crow = &c[size_t(m * p.stride_c + int64_t(i) * p.ldc)];
    for (int j = 0; j < p.N; ++j) {
      // Rounding to fp16, plus float accumulation (products of fp16 are exact in float;
      // tensor cores may truncate, hence 2^-22 per addition), plus fp16 subnormals.
      double bound = kUnitRoundoff * std::fabs(want[j]) + p.K * 0x1p-22 * mag[j] + 0x1p-24;
      double got = float(crow[j]), err = std::fabs(got - want[j]);
      if (!(err <= bound)) { // NaN (a missed element) fails too
        if (bad < 5)
          std::printf("  mismatch at [%d](%d, %d): got %g, want %g\n", m, i, j, got, want[j]);
        ++bad;
      } else {
        worst = std::max(worst, err / bound);
      }
    }
  }
  // Every element of every C[b] must be written (a missed one still holds the NaN poison),
  // and nothing between or after them.
  std::vector<bool> inside(c.size());
  for (int m = 0; m < p.batch; ++m)
    for (int i = 0; i < p.M; ++i)
      for (int j = 0; j < p.N; ++j) {
        size_t e = size_t(m * p.stride_c + int64_t(i) * p.ldc + j);
        inside[e] = true;
        bad += !std::isfinite(float(c[e]));
      }
  for (size_t e = 0; e < c.size(); ++e)
    if (!inside[e])
      overwritten += !example::is_poisoned(&c[e], sizeof(half));
  return bad;
}

bool check(const Problem &p, const Config &cfg, bool gpu) {
  example::Random rng{0xb47ull + uint64_t(p.batch) * 104729 + uint64_t(p.M) * 7919 +
                      uint64_t(p.N) * 131 + p.K};
  std::vector<half> a = make_operand(p, p.stride_a, p.M, p.K, p.lda, rng);
  std::vector<half> b = make_operand(p, p.stride_b, p.K, p.N, p.ldb, rng);
  std::vector<half> c(span(p, p.stride_c, p.M, p.N, p.ldc) + kPad);
  Matrices m{a.data(), b.data(), c.data(), a.size(), b.size(), c.size()};
  if (gpu)
    example::batched_matmul_on_gpu(p, m, cfg);
  else
    example::batched_matmul_in_interpreter(p, m, cfg);

  double worst = 0;
  size_t overwritten = 0;
  size_t bad = compare(p, a, b, c, worst, overwritten);
  if (overwritten)
    std::printf("  %zu elements outside the C matrices were written (masking bug)\n", overwritten);
  bool ok = bad == 0 && overwritten == 0;
  std::printf("%-4s fp16 %2d x %4d x %-4d x %-4d (ld %d/%d/%d, batch stride %lld/%lld/%lld, "
              "BLOCK %dx%dx%d, GROUP_M %d) %s, worst error %.2g of its bound",
              ok ? "ok" : "FAIL", p.batch, p.M, p.N, p.K, p.lda, p.ldb, p.ldc,
              (long long)p.stride_a, (long long)p.stride_b, (long long)p.stride_c, cfg.block_m,
              cfg.block_n, cfg.block_k, cfg.group_m,
              bad ? (std::to_string(bad) + " mismatches").c_str() : "all match", worst);
  const double flops = 2.0 * p.batch * p.M * p.N * p.K;
  if (ok && gpu && flops >= 1e9) {
    double ms = example::time_on_gpu_ms(p, m, cfg);
    std::printf("  %.3f ms, %.1f TFLOP/s", ms, flops / (ms * 1e9));
  }
  std::printf("\n");
  return ok;
}

bool run_checks(const example::RunOptions &run) {
  const bool gpu = run.gpu;
  // {batch, M, N, K, lda, ldb, ldc, batch strides of A, B, C}: a single element; padded rows,
  // gaps between the matrices of A and C and one B for the whole batch; dense.
  std::vector<Problem> problems = {{1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                                   {3, 17, 33, 65, 72, 40, 35, 17 * 72 + 5, 0, 17 * 35 + 9}};
  if (gpu) {
    problems.push_back({8, 1000, 1000, 1000, 1000, 1000, 1000, 1000 * 1000 + 64, 1000 * 1000 + 64,
                        1000 * 1000 + 64});
    problems.push_back({32, 1024, 1024, 1024, 1024, 1024, 1024, 1 << 20, 1 << 20, 1 << 20});
  } else {
    problems.push_back({2, 100, 70, 130, 130, 70, 70, 100 * 130, 130 * 70, 100 * 70});
  }
  // The interpreter also runs small blocks, so that its problems span many programs.
  std::vector<Config> configs = {example::kGpuConfig};
  if (!gpu)
    configs.push_back(example::kSmallConfig);

  bool ok = true;
  for (const Config &cfg : configs)
    for (const Problem &p : problems)
      ok &= check(p, cfg, gpu);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  return example::run_example(argc, argv, {"kernel", {}, run_checks});
}
