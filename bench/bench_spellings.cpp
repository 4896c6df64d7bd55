// bench_spellings.cpp - does tilec's speed depend on how a kernel is spelled? The kernels of
// bench/kernels/ are written as Triton's tutorials and their users write them, not as the
// translator likes them best:
//   matmul_offsets  C = A @ B, K offsets recomputed from the loop index (fp16, bf16)
//   linear_nt       y = x @ W^T, W stored [N, K] as torch.nn.Linear keeps it (fp16, bf16)
//   matmul_descriptor  C = A @ B through tensor descriptors (tutorial 09's spelling; reported
//                   with matmul_offsets as "tilec (tensor descriptors)")
//   matmul_strided  tutorial 03 as written, every stride an argument ("tilec (tutorial 03,
//                   every stride an argument)" with matmul_offsets)
//   matmul_block_ptr  block pointers with strides at run time (Triton's block-pointer
//                   tutorial; "tilec (block pointers)" with matmul_offsets)
//   int8_gemm       int8 x int8 -> int32, the spelling of matmul_offsets
//   fp8_linear      e4m3 x e4m3 with per-tensor scales -> bfloat16, the spelling of linear_nt
//   attention_fwd   the forward pass of Triton's fused attention tutorial (fp16)
// each through its autotuned launcher (TILEC_AUTOTUNE in the kernel file; the note names the
// config chosen). examples/matmul's matmul, which advances pointer tiles, runs on the same
// shapes as the reference spelling ("tilec (pointer-advancing matmul)" rows).
//
// First every kernel is checked against a CPU reference (double sums) on shapes that are not
// multiples of the blocks (1000^3; N_CTX = 1000), then at each timed shape before its timing:
// inputs random in [-1, 1) (int8: [-128, 127]), outputs poisoned (NaN, or an int32 no product
// can reach) before the launch, a sample of rows compared. A problem that fails is not timed;
// the program then exits 1 after the others ran.
//
// Timed: matmuls at 4096^3, 8192^3, 8192^2 x 1024, 16384 x 1024 x 16384 and 1024^3, attention
// at Z=4, H=32, N_CTX 1024 and 4096, HEAD_DIM 64 and 128, causal or not. FLOPs: 2*M*N*K for the
// matmuls (int8 operations counted the same), 4*Z*H*N^2*D for attention, half that when causal. The
// problems are far bigger than L2 or close to it, so one set of buffers is used (as bench_matmul).
// Times are the median of CUDA-event timings after warm-up, each launch after 256 MB written
// elsewhere (bench::median_ms_flushed), as Triton's do_bench times Triton and torch on the same
// problems in peers/spellings.py. Prints JSON lines (bench_util.h). Exits 77 without a GPU.
#include "attention_fwd.tilec.h"
#include "bench_util.h"
#include "fp8_linear.tilec.h"
#include "matmul.tilec.h"
#include "matmul_spellings.tilec.h"

#include <tilec/runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

int g_failures = 0; // problems whose check failed or that could not run

/// A device copy of a host vector, or `count` elements filled with the byte `poison`.
template <class T> struct Device {
  T *p = nullptr;
  size_t n = 0;
  explicit Device(const std::vector<T> &host) : n(host.size()) {
    CHECK_CUDA(cudaMalloc(&p, n * sizeof(T)));
    CHECK_CUDA(cudaMemcpy(p, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  Device(size_t count, unsigned char poison) : n(count) {
    CHECK_CUDA(cudaMalloc(&p, n * sizeof(T)));
    fill(poison);
  }
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;
  ~Device() { cudaFree(p); }
  // cudaMemset runs on the legacy default stream, which does not order itself with the
  // benchmark's non-blocking stream: wait for it, or a later launch could be overwritten.
  void fill(unsigned char byte) {
    CHECK_CUDA(cudaMemset(p, byte, n * sizeof(T)));
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  std::vector<T> download() const {
    std::vector<T> host(n);
    CHECK_CUDA(cudaMemcpy(host.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
};

/// The poison byte of an output: NaN for floats (0xffff is a NaN in half and bfloat16 too);
/// 0x7f7f7f7f for int32, beyond any int8 product sum of these sizes (128 * 128 * 8192 < 2^28).
template <class T> constexpr unsigned char kPoison = std::is_same_v<T, int32_t> ? 0x7f : 0xff;

/// splitmix64: the same stream on every run.
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

/// n values in [-1, 1) rounded to T (int8: [-128, 127]); `exact` gets them as floats.
template <class T>
std::vector<T> random_values(size_t n, uint64_t seed, std::vector<float> &exact) {
  Rng rng{seed};
  std::vector<T> v(n);
  exact.resize(n);
  for (size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, int8_t>)
      v[i] = int8_t(int(rng.next() >> 56) - 128);
    else
      v[i] = T(float(rng.next() >> 40) * (2.0f / 16777216.0f) - 1.0f);
    exact[i] = float(v[i]);
  }
  return v;
}

template <class T> const char *type_name() {
  if constexpr (std::is_same_v<T, tl::half>)
    return "fp16";
  else if constexpr (std::is_same_v<T, tl::bfloat16>)
    return "bf16";
  else
    return "int8";
}

/// The rows to compare: both edges of the first blocks, the middle, the last ones and a few
/// from a fixed stream; sorted, unique, inside [0, rows).
std::vector<int> sample_rows(int rows, int extra) {
  std::vector<int> r = {0, 1, 63, 64, 127, 128, rows / 2, rows - 2, rows - 1};
  Rng rng{uint64_t(rows)};
  for (int i = 0; i < extra; ++i)
    r.push_back(int(rng.next() % uint64_t(rows)));
  std::erase_if(r, [&](int x) { return x < 0 || x >= rows; });
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}

/// Counts mismatches, printing the first few to stderr; true when there were none.
struct Checker {
  std::string what;
  int bad = 0;
  void expect(bool ok, const std::string &where, double got, double want) {
    if (ok)
      return;
    if (++bad <= 5)
      std::fprintf(stderr, "bench_spellings: %s: MISMATCH at %s: got %.6g, want %.6g\n",
                   what.c_str(), where.c_str(), got, want);
  }
  bool done() {
    if (bad) {
      std::fprintf(stderr, "bench_spellings: %s: %d mismatches: FAILED\n", what.c_str(), bad);
      ++g_failures;
      return false;
    }
    std::fprintf(stderr, "bench_spellings: %s: check passed\n", what.c_str());
    return true;
  }
};

std::string shape_name(int M, int N, int K) {
  return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
}

// ---- matrix products ------------------------------------------------------------------------

enum class Spelling { offsets, linear_nt, advancing, descriptor, strided, block_ptr };

const char *spelling_name(Spelling s) {
  return s == Spelling::offsets      ? "matmul_offsets"
         : s == Spelling::linear_nt  ? "linear_nt"
         : s == Spelling::descriptor ? "matmul_descriptor"
         : s == Spelling::strided    ? "matmul_strided"
         : s == Spelling::block_ptr  ? "matmul_block_ptr"
                                     : "matmul";
}

/// One launch of a 16-bit matrix product through its autotuned launcher; `chosen` receives the
/// config that ran. For linear_nt, `b` is W [N, K]; otherwise B [K, N].
template <class T>
void launch_matmul(Spelling sp, cudaStream_t s, const T *a, const T *b, T *c, int M, int N, int K,
                   tilec::Config &chosen) {
  auto grid = [&](const tilec::Config &meta) {
    chosen = meta;
    return tilec::cdiv(M, meta["BLOCK_M"]) * tilec::cdiv(N, meta["BLOCK_N"]);
  };
  switch (sp) {
  case Spelling::offsets:
    matmul_offsets_autotuned<T>(grid, s, a, b, c, M, N, K, K, N, N);
    break;
  case Spelling::linear_nt:
    linear_nt_autotuned<T>(grid, s, a, b, c, M, N, K, K, K, N);
    break;
  case Spelling::advancing:
    matmul_autotuned<T, false>(grid, s, a, b, c, M, N, K, K, N, N);
    break;
  case Spelling::descriptor:
    matmul_descriptor_autotuned<T>(grid, s, a, b, c, M, N, K, K, N, N);
    break;
  case Spelling::strided: // every stride an argument, the inner ones 1
    matmul_strided_autotuned<T>(grid, s, a, b, c, M, N, K, K, 1, N, 1, N, 1);
    break;
  case Spelling::block_ptr:
    matmul_block_ptr_autotuned<T>(grid, s, a, b, c, M, N, K, K, 1, N, 1, N, 1);
    break;
  }
}

/// Compares sampled rows of c with the double-precision product. Errors allowed: the output's
/// rounding to T (twice its unit roundoff, relative) plus 1e-4 of sum |a||b| for the float
/// sums (the tensor cores add in their own order).
template <class T>
bool check_matmul(Spelling sp, const std::vector<float> &a, const std::vector<float> &b,
                  const std::vector<T> &c, int M, int N, int K, const std::string &what) {
  const double out_rel = std::is_same_v<T, tl::half> ? 1.0 / 1024 : 1.0 / 128;
  Checker chk{what};
  std::vector<double> ref(N), mag(N);
  for (int i : sample_rows(M, 8)) {
    std::fill(ref.begin(), ref.end(), 0.0);
    std::fill(mag.begin(), mag.end(), 0.0);
    if (sp == Spelling::linear_nt) { // b is W [N, K]
      for (int j = 0; j < N; ++j)
        for (int k = 0; k < K; ++k) {
          double x = double(a[size_t(i) * K + k]) * b[size_t(j) * K + k];
          ref[j] += x, mag[j] += std::fabs(x);
        }
    } else {
      for (int k = 0; k < K; ++k) {
        const double aik = a[size_t(i) * K + k];
        const float *brow = &b[size_t(k) * N];
        for (int j = 0; j < N; ++j) {
          double x = aik * brow[j];
          ref[j] += x, mag[j] += std::fabs(x);
        }
      }
    }
    for (int j = 0; j < N; ++j) {
      double got = float(c[size_t(i) * N + j]);
      double err = std::fabs(got - ref[j]);
      chk.expect(err <= out_rel * std::fabs(ref[j]) + 1e-4 * mag[j] + 1e-6,
                 "(" + std::to_string(i) + ", " + std::to_string(j) + ")", got, ref[j]);
    }
  }
  return chk.done();
}

/// One 16-bit matrix product: check, then (when `timed`) time and emit a row.
template <class T> void run_matmul(Spelling sp, int M, int N, int K, bool timed, cudaStream_t s) {
  const std::string shape = shape_name(M, N, K);
  // The name pairs with peers/spellings.py; the pointer-advancing reference spelling is
  // reported under the name of matmul_offsets, as another provider.
  const std::string name = std::string(sp == Spelling::linear_nt ? "linear_nt" : "matmul_offsets") +
                           " " + type_name<T>() + " " + shape;
  const std::string provider = sp == Spelling::advancing    ? "tilec (pointer-advancing matmul)"
                               : sp == Spelling::descriptor ? "tilec (tensor descriptors)"
                               : sp == Spelling::strided
                                   ? "tilec (tutorial 03, every stride an argument)"
                               : sp == Spelling::block_ptr ? "tilec (block pointers)"
                                                           : "tilec";
  const std::string what = std::string(spelling_name(sp)) + " " + type_name<T>() + " " + shape;
  try {
    std::vector<float> a_exact, b_exact;
    // linear_nt: W is [N, K]; the others: B is [K, N].
    Device<T> a(random_values<T>(size_t(M) * K, 11, a_exact));
    Device<T> b(random_values<T>(size_t(K) * N, 12, b_exact));
    Device<T> c(size_t(M) * N, kPoison<T>);
    tilec::Config chosen;
    launch_matmul(sp, s, a.p, b.p, c.p, M, N, K, chosen); // autotunes on its first call
    CHECK_CUDA(cudaStreamSynchronize(s));
    // The timing runs of the autotuner wrote c too: poison it again for the checked launch.
    c.fill(kPoison<T>);
    launch_matmul(sp, s, a.p, b.p, c.p, M, N, K, chosen);
    CHECK_CUDA(cudaStreamSynchronize(s));
    if (!check_matmul(sp, a_exact, b_exact, c.download(), M, N, K,
                      what + " [" + chosen.str() + "]"))
      return;
    if (!timed)
      return;
    double ms = bench::median_ms_flushed(
        [&](int) { launch_matmul(sp, s, a.p, b.p, c.p, M, N, K, chosen); }, s, 10, 50);
    bench::emit({name, provider, ms, "TFLOP/s", 2.0 * M * N * K / (ms * 1e9),
                 "autotuned: " + chosen.str()});
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_spellings: %s: FAILED: %s\n", what.c_str(), e.what());
    ++g_failures;
  }
}

/// The int8 product: exact int32 results, compared with 64-bit sums.
void run_int8(int M, int N, int K, bool timed, cudaStream_t s) {
  const std::string shape = shape_name(M, N, K);
  const std::string name = "int8_gemm int8 " + shape;
  try {
    std::vector<float> a_exact, b_exact;
    auto a_host = random_values<int8_t>(size_t(M) * K, 21, a_exact);
    auto b_host = random_values<int8_t>(size_t(K) * N, 22, b_exact);
    Device<int8_t> a(a_host), b(b_host);
    Device<int32_t> c(size_t(M) * N, kPoison<int32_t>);
    tilec::Config chosen;
    auto launch = [&] {
      auto grid = [&](const tilec::Config &meta) {
        chosen = meta;
        return tilec::cdiv(M, meta["BLOCK_M"]) * tilec::cdiv(N, meta["BLOCK_N"]);
      };
      int8_gemm_autotuned(grid, s, a.p, b.p, c.p, M, N, K, K, N, N);
    };
    launch();
    CHECK_CUDA(cudaStreamSynchronize(s));
    c.fill(kPoison<int32_t>);
    launch();
    CHECK_CUDA(cudaStreamSynchronize(s));
    auto got = c.download();
    Checker chk{"int8_gemm " + shape + " [" + chosen.str() + "]"};
    std::vector<int64_t> ref(N);
    for (int i : sample_rows(M, 8)) {
      std::fill(ref.begin(), ref.end(), 0);
      for (int k = 0; k < K; ++k) {
        const int64_t aik = a_host[size_t(i) * K + k];
        for (int j = 0; j < N; ++j)
          ref[j] += aik * b_host[size_t(k) * N + j];
      }
      for (int j = 0; j < N; ++j)
        chk.expect(int64_t(got[size_t(i) * N + j]) == ref[j],
                   "(" + std::to_string(i) + ", " + std::to_string(j) + ")",
                   double(got[size_t(i) * N + j]), double(ref[j]));
    }
    if (!chk.done() || !timed)
      return;
    double ms = bench::median_ms_flushed([&](int) { launch(); }, s, 5, 20);
    bench::emit({name, "tilec", ms, "TFLOP/s", 2.0 * M * N * K / (ms * 1e9),
                 "autotuned: " + chosen.str() + " (int8 operations per second)"});
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_spellings: %s: FAILED: %s\n", name.c_str(), e.what());
    ++g_failures;
  }
}

/// The fp8 product with per-tensor scales: x [M, K] and W [N, K] in e4m3 (values in [-1, 1)
/// rounded to e4m3), scales 0.5 and 0.25, bfloat16 out, against double sums of the e4m3 values
/// (sampled rows; the bound allows the tensor cores' shorter fp8 accumulator).
void run_fp8(int M, int N, int K, bool timed, cudaStream_t s) {
  const std::string shape = shape_name(M, N, K);
  const std::string name = "fp8_linear e4m3 " + shape;
  try {
    std::vector<float> x_exact, w_exact;
    Device<tl::float8_e4m3> x(random_values<tl::float8_e4m3>(size_t(M) * K, 41, x_exact));
    Device<tl::float8_e4m3> w(random_values<tl::float8_e4m3>(size_t(N) * K, 42, w_exact));
    const float scales[2] = {0.5f, 0.25f};
    Device<float> scale_x(std::vector<float>{scales[0]}), scale_w(std::vector<float>{scales[1]});
    Device<tl::bfloat16> y(size_t(M) * N, kPoison<tl::bfloat16>);
    tilec::Config chosen;
    auto launch = [&] {
      auto grid = [&](const tilec::Config &meta) {
        chosen = meta;
        return tilec::cdiv(M, meta["BLOCK_M"]) * tilec::cdiv(N, meta["BLOCK_N"]);
      };
      fp8_linear_autotuned(grid, s, x.p, w.p, y.p, scale_x.p, scale_w.p, M, N, K, K, K, N);
    };
    launch(); // autotunes
    CHECK_CUDA(cudaStreamSynchronize(s));
    y.fill(kPoison<tl::bfloat16>);
    launch();
    CHECK_CUDA(cudaStreamSynchronize(s));
    auto got = y.download();
    Checker chk{name + " [" + chosen.str() + "]"};
    const double scale = double(scales[0]) * scales[1];
    std::vector<double> ref(N), mag(N);
    for (int i : sample_rows(M, 8)) {
      for (int j = 0; j < N; ++j) {
        double sum = 0, abs_sum = 0;
        for (int k = 0; k < K; ++k) {
          double p = double(x_exact[size_t(i) * K + k]) * w_exact[size_t(j) * K + k];
          sum += p, abs_sum += std::fabs(p);
        }
        ref[j] = sum * scale, mag[j] = abs_sum * scale;
      }
      for (int j = 0; j < N; ++j) {
        double g = float(got[size_t(i) * N + j]);
        // The tensor cores sum fp8 products in fewer bits than float keeps (about 14; what
        // torch._scaled_mm calls fast accumulation): 2^-10 of the magnitudes summed.
        chk.expect(std::fabs(g - ref[j]) <= std::fabs(ref[j]) / 128 + 0x1p-10 * mag[j] + 1e-6,
                   "(" + std::to_string(i) + ", " + std::to_string(j) + ")", g, ref[j]);
      }
    }
    if (!chk.done() || !timed)
      return;
    double ms = bench::median_ms_flushed([&](int) { launch(); }, s, 5, 20);
    bench::emit({name, "tilec", ms, "TFLOP/s", 2.0 * M * N * K / (ms * 1e9),
                 "autotuned: " + chosen.str() + " (fp8 operations per second)"});
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_spellings: %s: FAILED: %s\n", name.c_str(), e.what());
    ++g_failures;
  }
}

// ---- attention ------------------------------------------------------------------------------

template <int D, bool CAUSAL, class T>
void launch_attention(cudaStream_t s, const T *q, const T *k, const T *v, T *o, float *m,
                      float sm_scale, int ZH, int N, tilec::Config &chosen) {
  auto grid = [&](const tilec::Config &meta) {
    chosen = meta;
    return tilec::Grid{uint32_t(tilec::cdiv(N, meta["BLOCK_M"])), uint32_t(ZH)};
  };
  attention_fwd_autotuned<D, CAUSAL, T>(grid, s, q, k, v, o, m, sm_scale, N);
}

/// Checks sampled (batch, head) slices and rows of O and M against double sums: O within
/// 2e-3 + 1e-2 |O| (P is rounded to T before P @ V, O is stored as T), M within 2e-3.
template <class T>
bool check_attention(const std::vector<float> &q, const std::vector<float> &k,
                     const std::vector<float> &v, const std::vector<T> &o,
                     const std::vector<float> &m, int ZH, int N, int D, bool causal, float sm_scale,
                     const std::string &what) {
  Checker chk{what};
  std::vector<double> s(N), acc(D);
  std::vector<int> slices = {0, ZH / 2 + 1, ZH - 1}; // the first, one inside, the last
  std::erase_if(slices, [&](int hz) { return hz >= ZH; });
  std::sort(slices.begin(), slices.end());
  slices.erase(std::unique(slices.begin(), slices.end()), slices.end());
  for (int hz : slices) {
    const size_t base = size_t(hz) * N * D;
    for (int i : sample_rows(N, N <= 1000 ? 64 : 16)) {
      const int keys = causal ? i + 1 : N;
      double mx = -INFINITY;
      for (int j = 0; j < keys; ++j) {
        double dot = 0;
        for (int d = 0; d < D; ++d)
          dot += double(q[base + size_t(i) * D + d]) * k[base + size_t(j) * D + d];
        s[j] = dot * sm_scale;
        mx = std::max(mx, s[j]);
      }
      double l = 0;
      std::fill(acc.begin(), acc.end(), 0.0);
      for (int j = 0; j < keys; ++j) {
        double p = std::exp(s[j] - mx);
        l += p;
        for (int d = 0; d < D; ++d)
          acc[d] += p * v[base + size_t(j) * D + d];
      }
      const std::string row = "(slice " + std::to_string(hz) + ", row " + std::to_string(i);
      for (int d = 0; d < D; ++d) {
        double want = acc[d] / l, got = float(o[base + size_t(i) * D + d]);
        chk.expect(std::fabs(got - want) <= 2e-3 + 1e-2 * std::fabs(want),
                   row + ", O column " + std::to_string(d) + ")", got, want);
      }
      double want_m = (mx + std::log(l)) / std::log(2.0), got_m = m[size_t(hz) * N + i];
      chk.expect(std::fabs(got_m - want_m) <= 2e-3, row + ", M)", got_m, want_m);
    }
  }
  return chk.done();
}

template <int D, bool CAUSAL, class T>
void run_attention(int Z, int H, int N, bool timed, cudaStream_t s) {
  const std::string name = std::string("attention_fwd ") + type_name<T>() + " Z" +
                           std::to_string(Z) + " H" + std::to_string(H) + " N" + std::to_string(N) +
                           " D" + std::to_string(D) + (CAUSAL ? " causal" : " non-causal");
  try {
    const int ZH = Z * H;
    const size_t count = size_t(ZH) * N * D;
    const float sm_scale = 1.0f / std::sqrt(float(D));
    std::vector<float> q_exact, k_exact, v_exact;
    Device<T> q(random_values<T>(count, 31, q_exact));
    Device<T> k(random_values<T>(count, 32, k_exact));
    Device<T> v(random_values<T>(count, 33, v_exact));
    Device<T> o(count, kPoison<T>);
    Device<float> m(size_t(ZH) * N, kPoison<float>);
    tilec::Config chosen;
    auto launch = [&] {
      launch_attention<D, CAUSAL, T>(s, q.p, k.p, v.p, o.p, m.p, sm_scale, ZH, N, chosen);
    };
    launch(); // autotunes
    CHECK_CUDA(cudaStreamSynchronize(s));
    o.fill(kPoison<T>);
    m.fill(kPoison<float>);
    launch();
    CHECK_CUDA(cudaStreamSynchronize(s));
    if (!check_attention(q_exact, k_exact, v_exact, o.download(), m.download(), ZH, N, D, CAUSAL,
                         sm_scale, name + " [" + chosen.str() + "]"))
      return;
    if (!timed)
      return;
    double ms = bench::median_ms_flushed([&](int) { launch(); }, s, 5, 20);
    const double flops = 4.0 * ZH * double(N) * N * D * (CAUSAL ? 0.5 : 1.0);
    bench::emit({name, "tilec", ms, "TFLOP/s", flops / (ms * 1e9), "autotuned: " + chosen.str()});
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_spellings: %s: FAILED: %s\n", name.c_str(), e.what());
    ++g_failures;
  }
}

template <int D, bool CAUSAL> void attention_shapes(cudaStream_t s) {
  run_attention<D, CAUSAL, tl::half>(1, 2, 1000, false, s); // ragged N_CTX: masks
  for (int n : {1024, 4096})
    run_attention<D, CAUSAL, tl::half>(4, 32, n, true, s);
}

/// Whether the spelling is to run: all of them, or those BENCH_SPELLINGS lists
/// (comma-separated names, e.g. matmul_descriptor), for a focused run on the GPU machine.
bool spelling_wanted(Spelling sp) {
  const char *only = std::getenv("BENCH_SPELLINGS");
  if (!only || !*only)
    return true;
  return ("," + std::string(only) + ",").find("," + std::string(spelling_name(sp)) + ",") !=
         std::string::npos;
}

template <class T> void matmul_shape(int M, int N, int K, bool timed, cudaStream_t s) {
  for (Spelling sp : {Spelling::offsets, Spelling::linear_nt, Spelling::descriptor,
                      Spelling::strided, Spelling::block_ptr})
    if (spelling_wanted(sp))
      run_matmul<T>(sp, M, N, K, timed, s);
  if (spelling_wanted(Spelling::advancing))
    run_matmul<T>(Spelling::advancing, M, N, K, timed, s);
}

/// Whether the family (matmul, int8, fp8, attention) is to run: all of them, or those listed in
/// BENCH_ONLY (comma-separated), for a focused run on the GPU machine.
bool wanted(const std::string &family) {
  const char *only = std::getenv("BENCH_ONLY");
  if (!only || !*only)
    return true;
  return ("," + std::string(only) + ",").find("," + family + ",") != std::string::npos;
}

} // namespace

int main() {
  return bench::run_on_gpu("bench_spellings", [](cudaStream_t s) {
    // Correctness on shapes that are not multiples of any block, before anything is timed.
    if (wanted("matmul")) {
      matmul_shape<tl::half>(1000, 1000, 1000, false, s);
      matmul_shape<tl::bfloat16>(1000, 1000, 1000, false, s);
    }
    if (wanted("int8"))
      run_int8(1000, 1000, 1000, false, s);
    if (wanted("fp8"))
      run_fp8(1000, 1000, 1000, false, s);
    // K short against M and N: the prologue, the epilogue and the wave tail weigh more.
    if (wanted("matmul")) {
      matmul_shape<tl::half>(8192, 8192, 1024, true, s);
      matmul_shape<tl::bfloat16>(8192, 8192, 1024, true, s);
    }
    // Tall-skinny (few columns of tiles against many K steps) and small (fewer tiles than SMs).
    if (wanted("matmul")) {
      for (auto [m, n, k] : {std::array{16384, 1024, 16384}, std::array{1024, 1024, 1024}}) {
        matmul_shape<tl::half>(m, n, k, true, s);
        matmul_shape<tl::bfloat16>(m, n, k, true, s);
      }
    }
    for (int size : {4096, 8192}) {
      if (wanted("matmul")) {
        matmul_shape<tl::half>(size, size, size, true, s);
        matmul_shape<tl::bfloat16>(size, size, size, true, s);
      }
      if (wanted("int8"))
        run_int8(size, size, size, true, s);
      if (wanted("fp8"))
        run_fp8(size, size, size, true, s);
    }
    if (wanted("attention")) {
      attention_shapes<64, false>(s);
      attention_shapes<64, true>(s);
      attention_shapes<128, false>(s);
      attention_shapes<128, true>(s);
    }
    if (g_failures)
      throw std::runtime_error(std::to_string(g_failures) +
                               " problem(s) failed their correctness check or could not run");
  });
}
