// main.cpp - checks the grouped GEMM kernel (grouped_gemm.cpp) in fp16 against a
// double-precision CPU reference: sets of GEMMs of different sizes, none a multiple of the
// blocks, with padded row strides, gaps between the matrices, and empty groups (M, N or K 0);
// once for any sizes (ALIGN 1) and once for sizes that are multiples of 16 (ALIGN 16). The
// GPU runs one program per SM and also times the large sets (TFLOP/s).
//
//   grouped_gemm [--gpu] [--interpreter]
//     --gpu          require a GPU: exit 77 ("SKIPPED") without one (for ctest)
//     --interpreter  run in the host interpreter even when a GPU is present
#include "runners.h"

#include "example_main.h"
#include "host_check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using example::Config;
using half = tl::half;

/// One GEMM of a group set: C [M, N] = A [M, K] @ B [K, N], row strides lda, ldb, ldc.
struct Gemm {
  int M, N, K, lda, ldb, ldc;
};

constexpr size_t kPad = 1024;                // elements after the last C that must stay untouched
constexpr double kMaxRowMacs = 1 << 28;      // above this, the reference checks a sample of rows
constexpr double kUnitRoundoff = 0x1p-11;    // fp16's final rounding
constexpr unsigned kInterpreterPrograms = 5; // fewer than the tiles: each program takes several

/// Elements a rows x cols matrix with row stride ld spans.
size_t span(int rows, int cols, int ld) {
  return rows == 0 || cols == 0 ? 0 : size_t(rows - 1) * ld + cols;
}

/// A group set laid out as the kernel reads it, in host memory.
struct HostGroups {
  std::vector<Gemm> gemms;
  std::vector<half> a, b, c;
  std::vector<int64_t> offsets;
  std::vector<int> sizes, lds;

  example::Groups view() {
    return {.a = a.data(),
            .b = b.data(),
            .c = c.data(),
            .a_len = a.size(),
            .b_len = b.size(),
            .c_len = c.size(),
            .offsets = offsets.data(),
            .sizes = sizes.data(),
            .lds = lds.data(),
            .count = int(gemms.size())};
  }
};

/// Places every matrix after a gap from the previous one, at a multiple of `align`; fills A
/// and B with values in [-1, 1) and their gaps and row padding with NaN, so that a read
/// outside a matrix would poison C.
HostGroups make_groups(const std::vector<Gemm> &gemms, int align, uint64_t seed) {
  HostGroups h{gemms, {}, {}, {}, {}, {}, {}};
  const int64_t gap = align == 1 ? 3 : 16;
  int64_t end[3] = {0, 0, 0};
  for (const Gemm &g : gemms) {
    const size_t spans[3] = {span(g.M, g.K, g.lda), span(g.K, g.N, g.ldb), span(g.M, g.N, g.ldc)};
    for (int o = 0; o < 3; ++o) {
      int64_t start = (end[o] + gap + align - 1) / align * align;
      h.offsets.push_back(start);
      end[o] = start + int64_t(spans[o]);
    }
    h.sizes.insert(h.sizes.end(), {g.M, g.N, g.K});
    h.lds.insert(h.lds.end(), {g.lda, g.ldb, g.ldc});
  }
  h.a.assign(size_t(end[0] + gap), half(NAN));
  h.b.assign(size_t(end[1] + gap), half(NAN));
  h.c.resize(size_t(end[2]) + kPad);
  example::Random rng{seed};
  auto fill = [&](std::vector<half> &v, int64_t start, int rows, int cols, int ld) {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j)
        v[size_t(start + int64_t(i) * ld + j)] = half(rng.next());
  };
  for (size_t g = 0; g < gemms.size(); ++g) {
    fill(h.a, h.offsets[3 * g], gemms[g].M, gemms[g].K, gemms[g].lda);
    fill(h.b, h.offsets[3 * g + 1], gemms[g].K, gemms[g].N, gemms[g].ldb);
  }
  return h;
}

/// Rows the reference checks: all of them for small GEMMs, else 64 spread out plus the last.
std::vector<int> rows_to_check(const Gemm &g) {
  std::vector<int> rows;
  const int step = double(g.M) * g.N * g.K <= kMaxRowMacs ? 1 : std::max(1, g.M / 64);
  for (int i = 0; i < g.M; i += step)
    rows.push_back(i);
  if (g.M > 0 && rows.back() != g.M - 1)
    rows.push_back(g.M - 1);
  return rows;
}

/// Compares group gi's C with the reference on the checked rows. Returns the number of
/// mismatches; `worst` is the largest error as a fraction of its bound.
size_t compare_group(const HostGroups &h, size_t gi, double &worst) {
  const Gemm &g = h.gemms[gi];
  const half *a = &h.a[size_t(h.offsets[3 * gi])], *b = &h.b[size_t(h.offsets[3 * gi + 1])];
  const half *c = &h.c[size_t(h.offsets[3 * gi + 2])];
  std::vector<float> bd(size_t(g.K) * g.N); // B as dense floats, for the reference
  for (int k = 0; k < g.K; ++k)
    for (int j = 0; j < g.N; ++j)
      bd[size_t(k) * g.N + j] = float(b[size_t(k) * g.ldb + j]);
  size_t bad = 0;
  std::vector<double> want(g.N), mag(g.N);
  for (int i : rows_to_check(g)) {
    std::fill(want.begin(), want.end(), 0.0);
    std::fill(mag.begin(), mag.end(), 0.0);
    for (int k = 0; k < g.K; ++k) {
      const double x = float(a[size_t(i) * g.lda + k]);
      for (int j = 0; j < g.N; ++j) {
        want[j] += x * bd[size_t(k) * g.N + j];
        mag[j] += std::fabs(x * bd[size_t(k) * g.N + j]);
      }
    }
    for (int j = 0; j < g.N; ++j) {
      // Rounding to fp16, plus float accumulation (products of fp16 are exact in float;
      // tensor cores may truncate, hence 2^-22 per addition), plus fp16 subnormals.
      double bound = kUnitRoundoff * std::fabs(want[j]) + g.K * 0x1p-22 * mag[j] + 0x1p-24;
      double got = float(c[size_t(i) * g.ldc + j]), err = std::fabs(got - want[j]);
      if (!(err <= bound)) { // NaN (a missed element) fails too
        if (bad < 5)
          std::printf("  mismatch in group %zu at (%d, %d): got %g, want %g\n", gi, i, j, got,
                      want[j]);
        ++bad;
      } else {
        worst = std::max(worst, err / bound);
      }
    }
  }
  return bad;
}

/// Every element of every C must be written (a missed one still holds the NaN poison), and
/// nothing between or after them. Returns the missed elements; `overwritten` counts the rest.
size_t check_coverage(const HostGroups &h, size_t &overwritten) {
  size_t missed = 0;
  std::vector<bool> inside(h.c.size());
  for (size_t gi = 0; gi < h.gemms.size(); ++gi) {
    const Gemm &g = h.gemms[gi];
    for (int i = 0; i < g.M; ++i)
      for (int j = 0; j < g.N; ++j) {
        size_t e = size_t(h.offsets[3 * gi + 2]) + size_t(i) * g.ldc + j;
        inside[e] = true;
        missed += !std::isfinite(float(h.c[e]));
      }
  }
  for (size_t e = 0; e < h.c.size(); ++e)
    if (!inside[e])
      overwritten += !example::is_poisoned(&h.c[e], sizeof(half));
  return missed;
}

std::string describe(const std::vector<Gemm> &gemms) {
  std::string s;
  for (const Gemm &g : gemms)
    s += (s.empty() ? "" : ", ") + std::to_string(g.M) + "x" + std::to_string(g.N) + "x" +
         std::to_string(g.K);
  return s;
}

bool check(const std::vector<Gemm> &gemms, const Config &cfg, bool gpu) {
  HostGroups h = make_groups(gemms, cfg.align, 0x6e3ull + gemms.size() * 7919 + cfg.align);
  const unsigned programs = gpu ? example::gpu_programs() : kInterpreterPrograms;
  if (gpu)
    example::grouped_gemm_on_gpu(h.view(), cfg, programs);
  else
    example::grouped_gemm_in_interpreter(h.view(), cfg, programs);

  double worst = 0;
  size_t overwritten = 0, bad = check_coverage(h, overwritten);
  for (size_t gi = 0; gi < gemms.size(); ++gi)
    bad += compare_group(h, gi, worst);
  if (overwritten)
    std::printf("  %zu elements outside the C matrices were written (masking bug)\n", overwritten);
  bool ok = bad == 0 && overwritten == 0;
  std::printf("%-4s fp16 %zu GEMMs (%s), BLOCK %dx%dx%d, ALIGN %d, %u programs: %s, worst "
              "error %.2g of its bound",
              ok ? "ok" : "FAIL", gemms.size(), describe(gemms).c_str(), cfg.block_m, cfg.block_n,
              cfg.block_k, cfg.align, programs,
              bad ? (std::to_string(bad) + " mismatches").c_str() : "all match", worst);
  double flops = 0;
  for (const Gemm &g : gemms)
    flops += 2.0 * g.M * g.N * g.K;
  if (ok && gpu && flops >= 1e9) {
    double ms = example::time_on_gpu_ms(h.view(), cfg, programs);
    std::printf("\n  %.3f ms, %.1f TFLOP/s", ms, flops / (ms * 1e9));
  }
  std::printf("\n");
  return ok;
}

bool run_checks(const example::RunOptions &run) {
  const bool gpu = run.gpu;
  // {M, N, K, lda, ldb, ldc}. Any sizes: padded row strides, and empty groups (M = 0 and
  // N = 0 have no tiles; K = 0 gives zeros).
  std::vector<Gemm> any = {{1, 1, 1, 1, 1, 1},     {17, 33, 65, 72, 40, 35},
                           {0, 5, 7, 7, 5, 5},     {100, 70, 130, 130, 70, 70},
                           {20, 30, 0, 1, 30, 31}, {9, 0, 4, 4, 1, 1},
                           {5, 40, 33, 33, 40, 40}};
  // Multiples of 16 (none of the blocks' 128 or 32).
  std::vector<Gemm> aligned = {{48, 80, 64, 80, 96, 80},
                               {16, 16, 16, 16, 16, 32},
                               {0, 16, 16, 16, 16, 16},
                               {96, 32, 48, 48, 48, 32},
                               {48, 16, 0, 16, 16, 16}};
  if (gpu) {
    any.push_back({1000, 1000, 1000, 1000, 1000, 1000});
    any.push_back({3000, 200, 700, 700, 200, 200});
    any.push_back({129, 2049, 257, 257, 2049, 2049});
    aligned = {{4096, 4096, 4096, 4096, 4096, 4096},
               {2048, 2048, 2048, 2048, 2048, 2048},
               {1024, 4096, 2048, 2048, 4096, 4096},
               {3008, 1008, 512, 512, 1008, 1008},
               {16, 16, 16, 16, 16, 16}};
  }
  bool ok = true;
  if (gpu) {
    ok &= check(any, example::kGpuConfig, gpu);
    ok &= check(aligned, example::kGpuConfig, gpu); // what the ALIGN 16 promise buys
    ok &= check(aligned, example::kGpuAlignedConfig, gpu);
  } else {
    for (const Config &cfg : {example::kGpuConfig, example::kSmallConfig})
      ok &= check(any, cfg, gpu);
    for (const Config &cfg : {example::kGpuAlignedConfig, example::kSmallAlignedConfig})
      ok &= check(aligned, cfg, gpu);
  }
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  return example::run_example(argc, argv, {"kernel", {}, run_checks});
}
