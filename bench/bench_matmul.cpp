// bench_matmul.cpp - matmul (examples/matmul) through tilec's NVRTC path, fp16 and bf16,
// M x N x K = 4096^3, 8192^3 and 8192 x 8192 x 1024, BLOCK 128x128x32, GROUP_M 8,
// num_warps 4, num_stages 4 (the example's GPU config). FLOPs: 2 * M * N * K.
// Inputs are random (tensor cores draw less power, and clock higher, on zeros); a problem
// this size is far bigger than L2, so one set of buffers is enough.
// Prints JSON lines (bench_util.h). Exits 77 without a GPU.
#include "bench_util.h"
#include "matmul.tilec.h"

#include <tilec/runtime.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace {

constexpr int kBlockM = 128, kBlockN = 128, kBlockK = 32, kGroupM = 8;
constexpr int kWarps = 4, kStages = 4;

template <class T> struct Device {
  T *p = nullptr;
  explicit Device(const std::vector<T> &host) {
    CHECK_CUDA(cudaMalloc(&p, host.size() * sizeof(T)));
    CHECK_CUDA(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~Device() { cudaFree(p); }
};

/// n values in [-1, 1) from a fixed seed (splitmix64), rounded to T.
template <class T> std::vector<T> random_values(size_t n, uint64_t seed) {
  std::vector<T> v(n);
  for (T &x : v) {
    uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    x = T(float((z ^ (z >> 31)) >> 40) * (2.0f / 16777216.0f) - 1.0f);
  }
  return v;
}

template <class T> void bench_shape(int M, int N, int K, const char *type, cudaStream_t s) {
  Device<T> a(random_values<T>(size_t(M) * K, 1)), b(random_values<T>(size_t(K) * N, 2));
  Device<T> c(std::vector<T>(size_t(M) * N));
  const uint32_t programs = uint32_t(tilec::cdiv(M, kBlockM) * tilec::cdiv(N, kBlockN));
  auto run = [&](int) {
    matmul<kBlockM, kBlockN, kBlockK, kGroupM, T, false>(
        tilec::Grid{programs}, s, a.p, b.p, c.p, M, N, K, K, N, N,
        {.num_warps = kWarps, .num_stages = kStages});
  };
  double ms = bench::median_ms(run, s, 5, 20);
  const double flops = 2.0 * M * N * K;
  bench::emit({"matmul " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) +
                   " " + type,
               "tilec", ms, "TFLOP/s", flops / (ms * 1e9),
               "BLOCK 128x128x32 GROUP_M=8 num_warps=4 num_stages=4"});
}

} // namespace

int main() {
  return bench::run_on_gpu("bench_matmul", [](cudaStream_t s) {
    for (auto [m, n, k] : {std::array{4096, 4096, 4096}, std::array{8192, 8192, 8192},
                           std::array{8192, 8192, 1024}}) {
      bench_shape<tl::half>(m, n, k, "fp16", s);
      bench_shape<tl::bfloat16>(m, n, k, "bf16", s);
    }
  });
}
