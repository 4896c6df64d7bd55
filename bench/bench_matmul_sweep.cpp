// bench_matmul_sweep.cpp - every matmul spelling of bench_spellings (pointer-advancing,
// offsets recomputed from the loop index, x @ W^T with W [N, K]) at each of a list of fixed
// configs, no autotuning: which configs each spelling likes, and whether a gap between
// spellings belongs to one config or to all. A diagnostic for bench/NOTES.md, not part of the
// report table.
//
// Shapes: S^3 for S in BENCH_SWEEP_SIZES (default "4096 8192"), fp16 and bf16. Inputs random,
// output poisoned once and checked to be finite after the first launch of each config (the
// numerics are checked by bench_spellings). Times: median of CUDA-event timings after warm-up.
// BENCH_SWEEP_ONLY selects problems by a part of their description (see selected()).
// Prints one JSON line per (spelling, type, size, config). Exits 77 without a GPU.
#include "bench_util.h"
#include "matmul.tilec.h"
#include "matmul_spellings.tilec.h"

#include <tilec/runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <sstream>
#include <string>
#include <vector>

namespace {

template <int BM, int BN, int BK, int W, int S> struct Cfg {
  static constexpr int M = BM, N = BN, K = BK, warps = W, stages = S;
  static std::string str() {
    return std::to_string(BM) + "x" + std::to_string(BN) + "x" + std::to_string(BK) + " w" +
           std::to_string(W) + " s" + std::to_string(S);
  }
};

enum class Spelling { advancing, offsets, linear_nt };
const char *names[] = {"matmul", "matmul_offsets", "linear_nt"};

template <class T> const char *type_name() {
  return std::is_same_v<T, tl::half> ? "fp16" : "bf16";
}

template <class T, class C>
void launch(Spelling sp, cudaStream_t s, const T *a, const T *b, T *c, int n) {
  const tilec::Grid grid{unsigned(tilec::cdiv(n, C::M) * tilec::cdiv(n, C::N))};
  const tilec::LaunchOptions opt{.num_warps = C::warps, .num_stages = C::stages};
  switch (sp) {
  case Spelling::advancing:
    matmul<C::M, C::N, C::K, 8, T, false>(grid, s, a, b, c, n, n, n, n, n, n, opt);
    break;
  case Spelling::offsets:
    matmul_offsets<C::M, C::N, C::K, 8, T>(grid, s, a, b, c, n, n, n, n, n, n, opt);
    break;
  case Spelling::linear_nt:
    linear_nt<C::M, C::N, C::K, 8, T>(grid, s, a, b, c, n, n, n, n, n, n, opt);
    break;
  }
}

/// BENCH_SWEEP_ONLY: run only the problems whose description contains one of its
/// comma-separated parts (e.g. "bf16 8192^3 [128x128x64 w4 s3]"), for profiling one kernel.
bool selected(const std::string &what) {
  const char *only = std::getenv("BENCH_SWEEP_ONLY");
  if (!only || !*only)
    return true;
  std::istringstream parts(only);
  for (std::string part; std::getline(parts, part, ',');)
    if (!part.empty() && what.find(part) != std::string::npos)
      return true;
  return false;
}

template <class T, class C>
void time_config(Spelling sp, cudaStream_t s, const T *a, const T *b, T *c, int n) {
  const std::string what = std::string(names[int(sp)]) + " " + type_name<T>() + " " +
                           std::to_string(n) + "^3 [" + C::str() + "]";
  if (!selected(what))
    return;
  try {
    CHECK_CUDA(cudaMemsetAsync(c, 0xff, size_t(n) * n * sizeof(T), s)); // NaN
    launch<T, C>(sp, s, a, b, c, n);
    T first;
    CHECK_CUDA(cudaMemcpyAsync(&first, c, sizeof(T), cudaMemcpyDeviceToHost, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    if (!std::isfinite(float(first)))
      throw std::runtime_error("output not written");
    double ms = bench::median_ms([&](int) { launch<T, C>(sp, s, a, b, c, n); }, s, 5, 20);
    bench::emit({std::string(names[int(sp)]) + " " + type_name<T>() + " " + std::to_string(n) +
                     "^3",
                 "tilec [" + C::str() + "]", ms, "TFLOP/s", 2.0 * n * n * double(n) / (ms * 1e9),
                 "fixed config"});
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_matmul_sweep: %s: FAILED: %s\n", what.c_str(), e.what());
  }
}

template <class T, class... Cs> void sweep(int n, cudaStream_t s) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<T> host(size_t(n) * n);
  for (auto &v : host)
    v = T(dist(rng));
  T *a = nullptr, *b = nullptr, *c = nullptr;
  for (T **p : {&a, &b, &c})
    CHECK_CUDA(cudaMalloc(p, host.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(a, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(b, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  for (Spelling sp : {Spelling::advancing, Spelling::offsets, Spelling::linear_nt})
    (time_config<T, Cs>(sp, s, a, b, c, n), ...);
  for (T *p : {a, b, c})
    CHECK_CUDA(cudaFree(p));
}

template <class T> void sweep_all(int n, cudaStream_t s) {
  sweep<T, Cfg<128, 128, 32, 4, 4>, Cfg<128, 128, 64, 4, 3>, Cfg<128, 128, 64, 4, 4>,
        Cfg<128, 256, 64, 8, 3>, Cfg<128, 256, 64, 8, 4>, Cfg<256, 128, 64, 8, 3>,
        Cfg<128, 256, 32, 8, 4>, Cfg<128, 256, 32, 8, 6>, Cfg<128, 128, 32, 4, 6>,
        Cfg<128, 128, 64, 8, 4>>(n, s);
}

} // namespace

int main() {
  std::vector<int> sizes = {4096, 8192};
  if (const char *env = std::getenv("BENCH_SWEEP_SIZES")) {
    sizes.clear();
    std::istringstream in(env);
    for (int n; in >> n;)
      sizes.push_back(n);
  }
  return bench::run_on_gpu("bench_matmul_sweep", [&](cudaStream_t s) {
    for (int n : sizes) {
      sweep_all<tl::half>(n, s);
      sweep_all<tl::bfloat16>(n, s);
    }
  });
}
