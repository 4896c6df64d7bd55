// main.cpp - checks add_kernel (vector_add.cpp) against a CPU reference, fp32 and fp16, at
// sizes that cover a single masked lane, a partial tile, many tiles plus a ragged tail, and
// a 1 GiB array. Runs on the GPU when there is one, else in the interpreter.
//
//   vector_add [--gpu] [--interpreter] [--small] [--expect-aot]
//     --gpu          require a GPU: exit 77 ("SKIPPED") without one (for ctest)
//     --interpreter  run in the host interpreter even when a GPU is present
//     --small        small sizes only (for compute-sanitizer)
//     --expect-aot   fail if any kernel was compiled with NVRTC (the nvcc build)
#include "runners.h"

#include "example_main.h"
#include "host_check.h"

#include <tilec/runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr size_t kPad = 4096; // output elements past n that must stay untouched

template <class T> const char *dtype_name() { return sizeof(T) == 4 ? "fp32" : "fp16"; }

// Relative tolerance against the reference; fp16 results may differ by one rounding.
template <class T> float tolerance() { return sizeof(T) == 4 ? 1e-6f : 1e-3f; }

// Runs one size for one element type; returns true when every element matches.
template <class T> bool check(int n, bool gpu) {
  example::Random rng{0x7111ecull + uint64_t(n) * 31 + sizeof(T)};
  std::vector<T> x(n), y(n), out(n + kPad);
  for (int i = 0; i < n; ++i) {
    x[i] = T(rng.next());
    y[i] = T(rng.next());
  }
  if (gpu)
    example::add_on_gpu(x.data(), y.data(), out.data(), n, out.size());
  else
    example::add_in_interpreter(x.data(), y.data(), out.data(), n, out.size());

  size_t bad = 0;
  for (int i = 0; i < n; ++i) {
    float want = float(T(float(x[i]) + float(y[i])));
    float got = float(out[i]);
    if (!(std::fabs(got - want) <= tolerance<T>() * std::fabs(want))) { // NaN fails too
      if (bad < 5)
        std::printf("  mismatch at %d: got %g, want %g\n", i, got, want);
      ++bad;
    }
  }
  bool pad_ok = example::is_poisoned(out.data() + n, kPad * sizeof(T));
  if (!pad_ok)
    std::printf("  the kernel wrote past element n-1 (masking bug)\n");
  bool ok = bad == 0 && pad_ok;
  std::printf("%-4s %s n=%-10d %s", ok ? "ok" : "FAIL", dtype_name<T>(), n,
              bad ? (std::to_string(bad) + " mismatches").c_str() : "all match");
  if (ok && gpu && n >= (1 << 20)) {
    double ms = example::time_on_gpu_ms(sizeof(T) == 2, n);
    std::printf("  %.3f ms, %.0f GB/s", ms, 3.0 * n * sizeof(T) / (ms * 1e6));
  }
  std::printf("\n");
  return ok;
}

bool run_checks(const example::RunOptions &run) {
  std::vector<int> sizes = {1, 1000, (1 << 20) + 3};
  if (run.has("--small"))
    sizes = {1, 1000, (1 << 16) + 3};
  else if (run.gpu)
    sizes.push_back(1 << 28); // 1 GiB per fp32 array: too slow for the interpreter

  bool ok = true;
  for (int n : sizes)
    ok &= check<float>(n, run.gpu);
  for (int n : sizes)
    ok &= check<tl::half>(n, run.gpu);

  if (run.gpu) {
    tilec::RuntimeStats s = tilec::runtime_stats();
    std::printf("runtime: %llu NVRTC compiles, %llu disk-cache hits, %llu memory hits\n",
                (unsigned long long)s.nvrtc_compiles, (unsigned long long)s.disk_hits,
                (unsigned long long)s.memory_hits);
    if (run.has("--expect-aot") && s.nvrtc_compiles + s.disk_hits != 0) {
      std::printf("FAIL: expected ahead-of-time kernels only, but NVRTC code was used\n");
      ok = false;
    }
  }
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  return example::run_example(argc, argv, {"kernel", {"--small", "--expect-aot"}, run_checks});
}
