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

#include <tilec/runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

constexpr int kSkipped = 77;
constexpr size_t kPad = 4096; // output elements past n that must stay untouched

struct Options {
  bool require_gpu = false, interpreter = false, small = false, expect_aot = false;
};

// Deterministic inputs in [-1, 1) from a fixed seed (splitmix64: fast enough for 2^28).
struct Random {
  uint64_t state;
  float next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return float(z >> 40) * (2.0f / 16777216.0f) - 1.0f;
  }
};

template <class T> const char *dtype_name() { return sizeof(T) == 4 ? "fp32" : "fp16"; }

// Relative tolerance against the reference; fp16 results may differ by one rounding.
template <class T> float tolerance() { return sizeof(T) == 4 ? 1e-6f : 1e-3f; }

bool is_poison(const void *p, size_t bytes) {
  const auto *b = static_cast<const unsigned char *>(p);
  for (size_t i = 0; i < bytes; ++i)
    if (b[i] != 0xFF)
      return false;
  return true;
}

// Runs one size for one element type; returns true when every element matches.
template <class T> bool check(int n, bool gpu) {
  Random rng{0x7111ecull + uint64_t(n) * 31 + sizeof(T)};
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
  bool pad_ok = is_poison(out.data() + n, kPad * sizeof(T));
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

bool parse(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--gpu")
      o.require_gpu = true;
    else if (a == "--interpreter")
      o.interpreter = true;
    else if (a == "--small")
      o.small = true;
    else if (a == "--expect-aot")
      o.expect_aot = true;
    else {
      std::fprintf(stderr, "usage: %s [--gpu] [--interpreter] [--small] [--expect-aot]\n", argv[0]);
      return false;
    }
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Options opt;
  if (!parse(argc, argv, opt))
    return 2;

  bool gpu = false;
  if (!opt.interpreter) {
    std::string why;
    gpu = tilec::gpu_available(&why);
    if (!gpu && opt.require_gpu) {
      std::printf("SKIPPED: no GPU (%s)\n", why.c_str());
      return kSkipped;
    }
    if (!gpu)
      std::printf("No GPU (%s): running the kernel in the tilec interpreter instead.\n",
                  why.c_str());
  } else {
    std::printf("Running the kernel in the tilec interpreter (--interpreter).\n");
  }
  if (gpu)
    std::printf("Running the kernel on the GPU through the tilec runtime.\n");

  std::vector<int> sizes = {1, 1000, (1 << 20) + 3};
  if (opt.small)
    sizes = {1, 1000, (1 << 16) + 3};
  else if (gpu)
    sizes.push_back(1 << 28); // 1 GiB per fp32 array: too slow for the interpreter

  bool ok = true;
  try {
    for (int n : sizes)
      ok &= check<float>(n, gpu);
    for (int n : sizes)
      ok &= check<tl::half>(n, gpu);
  } catch (const std::exception &e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }

  if (gpu) {
    tilec::RuntimeStats s = tilec::runtime_stats();
    std::printf("runtime: %llu NVRTC compiles, %llu disk-cache hits, %llu memory hits\n",
                (unsigned long long)s.nvrtc_compiles, (unsigned long long)s.disk_hits,
                (unsigned long long)s.memory_hits);
    if (opt.expect_aot && s.nvrtc_compiles + s.disk_hits != 0) {
      std::printf("FAIL: expected ahead-of-time kernels only, but NVRTC code was used\n");
      ok = false;
    }
  }
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
