// main.cpp - checks the matmul kernel (matmul.cpp) against a double-precision CPU reference
// in fp16 and bf16, with and without the leaky ReLU, on sizes that are not multiples of the
// blocks: 1 x 1 x 1, 17 x 33 x 65 (padded row strides), 100 x 70 x 130 in the interpreter;
// 1 x 1 x 1, 17 x 33 x 65, 1000 x 1000 x 1000 and 4096 x 4096 x 4096 on the GPU, with
// timing (TFLOP/s) for the large ones. The GPU runs the configs that autotuning chooses
// (TILEC_PRINT_AUTOTUNING=1 shows them); the interpreter runs fixed ones.
//
//   matmul [--gpu] [--interpreter]
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

constexpr size_t kPad = 1024; // output elements past the last row that must stay untouched
constexpr double kMaxRowMacs = 1 << 28; // above this, the reference checks a sample of rows

template <class T> const char *type_name() {
  return std::is_same_v<T, tl::half> ? "fp16" : "bf16";
}
// Half the distance between 1 and the next value: the output's relative rounding error.
template <class T> double unit_roundoff() {
  return std::is_same_v<T, tl::half> ? 0x1p-11 : 0x1p-8;
}

/// Rows the reference checks: all of them for small problems, else 64 spread out plus the last.
std::vector<int> rows_to_check(const Problem &p) {
  std::vector<int> rows;
  const int step = double(p.M) * p.N * p.K <= kMaxRowMacs ? 1 : std::max(1, p.M / 64);
  for (int i = 0; i < p.M; i += step)
    rows.push_back(i);
  if (rows.back() != p.M - 1)
    rows.push_back(p.M - 1);
  return rows;
}

bool is_poison(const void *p, size_t bytes) { return example::is_poisoned(p, bytes); }

/// Compares C with the reference on the checked rows, and checks that every element of C was
/// written and nothing else. Returns the number of mismatches; `worst` is the largest error
/// as a fraction of its bound.
template <class T>
size_t compare(const Problem &p, const std::vector<T> &a, const std::vector<float> &b,
               const std::vector<T> &c, bool leaky, double &worst, size_t &overwritten) {
  size_t bad = 0;
  std::vector<double> want(p.N), mag(p.N);
  for (int i : rows_to_check(p)) {
    std::fill(want.begin(), want.end(), 0.0);
    std::fill(mag.begin(), mag.end(), 0.0);
    for (int k = 0; k < p.K; ++k) {
      const double x = float(a[size_t(i) * p.lda + k]);
      const float *brow = &b[size_t(k) * p.N];
      for (int j = 0; j < p.N; ++j) {
        want[j] += x * brow[j];
        mag[j] += std::fabs(x * brow[j]);
      }
    }
    for (int j = 0; j < p.N; ++j) {
      double w = leaky && want[j] < 0 ? 0.01 * want[j] : want[j];
      // Rounding to T, plus float accumulation (products of fp16/bf16 are exact in float;
      // tensor cores may truncate, hence 2^-22 per addition), plus fp16 subnormals.
      double bound = unit_roundoff<T>() * std::fabs(w) + p.K * 0x1p-22 * mag[j] + 0x1p-24;
      double got = float(c[size_t(i) * p.ldc + j]), err = std::fabs(got - w);
      if (!(err <= bound)) { // NaN (a missed element) fails too
        if (bad < 5)
          std::printf("  mismatch at (%d, %d): got %g, want %g\n", i, j, got, w);
        ++bad;
      } else {
        worst = std::max(worst, err / bound);
      }
    }
  }
  for (int i = 0; i < p.M; ++i) {
    const T *row = &c[size_t(i) * p.ldc];
    for (int j = 0; j < p.N; ++j)
      bad += !std::isfinite(float(row[j])); // a missed element still holds the NaN poison
    for (int j = p.N; j < p.ldc && i + 1 < p.M; ++j)
      overwritten += !is_poison(&row[j], sizeof(T));
  }
  for (size_t e = size_t(p.M - 1) * p.ldc + p.N; e < c.size(); ++e)
    overwritten += !is_poison(&c[e], sizeof(T));
  return bad;
}

template <class T> bool check(const Problem &p, const Config &cfg, bool leaky, bool gpu) {
  example::Random rng{0x3a7ull + uint64_t(p.M) * 7919 + uint64_t(p.N) * 131 + p.K};
  // Values in [-1, 1). The padding between rows is NaN: a read past K or N would poison C.
  std::vector<T> a(size_t(p.M - 1) * p.lda + p.K), b(size_t(p.K - 1) * p.ldb + p.N);
  std::vector<float> bd(size_t(p.K) * p.N); // b as floats, dense, for the reference
  for (size_t e = 0; e < a.size(); ++e)
    a[e] = int(e % p.lda) < p.K ? T(rng.next()) : T(NAN);
  for (size_t e = 0; e < b.size(); ++e) {
    b[e] = int(e % p.ldb) < p.N ? T(rng.next()) : T(NAN);
    if (int(e % p.ldb) < p.N)
      bd[e / p.ldb * p.N + e % p.ldb] = float(b[e]);
  }
  std::vector<T> c(size_t(p.M - 1) * p.ldc + p.N + kPad);
  Matrices<T> m{a.data(), b.data(), c.data(), a.size(), b.size(), c.size()};
  if (gpu)
    example::matmul_on_gpu(p, m, cfg, leaky);
  else
    example::matmul_in_interpreter(p, m, cfg, leaky);

  double worst = 0;
  size_t overwritten = 0;
  size_t bad = compare(p, a, bd, c, leaky, worst, overwritten);
  if (overwritten)
    std::printf("  %zu elements outside C were written (masking bug)\n", overwritten);
  bool ok = bad == 0 && overwritten == 0;
  char blocks[64] = "autotuned";
  if (!(cfg == example::kAutotuned))
    std::snprintf(blocks, sizeof blocks, "BLOCK %dx%dx%d, GROUP_M %d", cfg.block_m, cfg.block_n,
                  cfg.block_k, cfg.group_m);
  std::printf("%-4s %s %-5s %4d x %-4d x %-4d (ld %d/%d/%d, %s) %s, worst error %.2g of its bound",
              ok ? "ok" : "FAIL", type_name<T>(), leaky ? "leaky" : "plain", p.M, p.N, p.K, p.lda,
              p.ldb, p.ldc, blocks,
              bad ? (std::to_string(bad) + " mismatches").c_str() : "all match", worst);
  if (ok && gpu && 2.0 * p.M * p.N * p.K >= 1e9) {
    double ms = example::time_on_gpu_ms(p, m, cfg, leaky);
    std::printf("  %.3f ms, %.1f TFLOP/s", ms, 2.0 * p.M * p.N * p.K / (ms * 1e9));
  }
  std::printf("\n");
  return ok;
}

bool run_checks(const example::RunOptions &run) {
  bool gpu = run.gpu;
  // {M, N, K, lda, ldb, ldc}: dense, and padded row strides.
  std::vector<Problem> problems = {{1, 1, 1, 1, 1, 1}, {17, 33, 65, 72, 40, 35}};
  if (gpu) {
    problems.push_back({1000, 1000, 1000, 1000, 1000, 1000});
    problems.push_back({4096, 4096, 4096, 4096, 4096, 4096});
  } else {
    problems.push_back({100, 70, 130, 130, 70, 70});
  }
  // The GPU runs what autotuning chooses; the interpreter runs a fixed config and small
  // blocks, so that its problems span many programs.
  std::vector<Config> configs = {example::kAutotuned};
  if (!gpu)
    configs = {example::kGpuConfig, example::kSmallConfig};

  bool ok = true;
  for (bool leaky : {false, true})
    for (const Config &cfg : configs)
      for (const Problem &p : problems) {
        ok &= check<tl::half>(p, cfg, leaky, gpu);
        ok &= check<tl::bfloat16>(p, cfg, leaky, gpu);
      }
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  return example::run_example(argc, argv, {"kernel", {}, run_checks});
}
