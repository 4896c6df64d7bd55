// bench_matmul.cpp - matmul (examples/matmul) through tilec's NVRTC path, fp16 and bf16,
// M x N x K = 4096^3, 8192^3, 8192 x 8192 x 1024, a tall-skinny 16384 x 1024 x 16384 and a small
// 1024^3, each over a few tile configurations (the
// fastest is the tilec row; compile-time choices until autotuning picks them). FLOPs: 2 * M * N * K.
// Inputs are random (tensor cores draw less power, and clock higher, on zeros); a problem
// this size is far bigger than L2, so one set of buffers is enough.
// Prints JSON lines (bench_util.h). Exits 77 without a GPU.
#include "bench_util.h"
#include "matmul.tilec.h"

#include <tilec/runtime.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace {

/// The configurations tried for each shape (template values and launch options); the best
/// is the "tilec" row, every one is also reported under "tilec config".
struct Config {
  int bm, bn, bk, warps, stages;
};
constexpr std::array<Config, 7> kConfigs = {{{128, 128, 32, 4, 4},
                                             {128, 128, 32, 4, 6},
                                             {128, 128, 64, 4, 3},
                                             {128, 128, 64, 4, 4},
                                             {128, 256, 64, 8, 3},
                                             {128, 256, 64, 8, 4},
                                             {256, 128, 64, 8, 3}}};
constexpr int kGroupM = 8;

std::string describe(const Config &c) {
  return "BLOCK " + std::to_string(c.bm) + "x" + std::to_string(c.bn) + "x" + std::to_string(c.bk) +
         " GROUP_M=" + std::to_string(kGroupM) + " num_warps=" + std::to_string(c.warps) +
         " num_stages=" + std::to_string(c.stages);
}

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

template <int I, class T>
void launch_config(uint32_t programs, cudaStream_t s, const T *a, const T *b, T *c, int M, int N,
                   int K) {
  constexpr Config cfg = kConfigs[I];
  matmul<cfg.bm, cfg.bn, cfg.bk, kGroupM, T, false>(tilec::Grid{programs}, s, a, b, c, M, N, K, K,
                                                    N, N,
                                                    {.num_warps = cfg.warps, .num_stages = cfg.stages});
}

template <class T, size_t... I>
void bench_shape(int M, int N, int K, const char *type, cudaStream_t s,
                 std::index_sequence<I...>) {
  Device<T> a(random_values<T>(size_t(M) * K, 1)), b(random_values<T>(size_t(K) * N, 2));
  Device<T> c(std::vector<T>(size_t(M) * N));
  const std::string name = "matmul " + std::to_string(M) + "x" + std::to_string(N) + "x" +
                           std::to_string(K) + " " + type;
  const double flops = 2.0 * M * N * K;
  double best_ms = 1e30;
  size_t best = 0;
  auto try_config = [&](size_t i, auto launch) {
    const Config &cfg = kConfigs[i];
    const uint32_t programs = uint32_t(tilec::cdiv(M, cfg.bm) * tilec::cdiv(N, cfg.bn));
    double ms = bench::median_ms([&](int) { launch(programs); }, s, 5, 20);
    bench::emit({name + " [" + describe(cfg) + "]", "tilec config", ms, "TFLOP/s",
                 flops / (ms * 1e9), ""});
    if (ms < best_ms)
      best_ms = ms, best = i;
  };
  (try_config(I, [&](uint32_t programs) { launch_config<I>(programs, s, a.p, b.p, c.p, M, N, K); }),
   ...);
  bench::emit({name, "tilec", best_ms, "TFLOP/s", flops / (best_ms * 1e9),
               "best of " + std::to_string(kConfigs.size()) + ": " + describe(kConfigs[best])});
}

} // namespace

int main() {
  return bench::run_on_gpu("bench_matmul", [](cudaStream_t s) {
    for (auto [m, n, k] : {std::array{4096, 4096, 4096}, std::array{8192, 8192, 8192},
                           std::array{8192, 8192, 1024}, std::array{16384, 1024, 16384},
                           std::array{1024, 1024, 1024}}) {
      bench_shape<tl::half>(m, n, k, "fp16", s, std::make_index_sequence<kConfigs.size()>{});
      bench_shape<tl::bfloat16>(m, n, k, "bf16", s, std::make_index_sequence<kConfigs.size()>{});
    }
  });
}
