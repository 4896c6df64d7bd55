// bench_autotune.cpp - what autotuning costs on the first call: matmul_autotuned (the
// TILEC_AUTOTUNE declaration of examples/matmul, six configs) on fp16 4096^3, wall time of one
// launch + synchronize in four states:
//   cold          empty TILEC_CACHE_DIR: compiles the configs (in parallel) and times them
//   time only     cubins on disk, no choice: loads the configs and times them
//   cached choice choice and cubin on disk (a new process): loads one config
//   memory        the choice in memory: the launch itself (plus its run time)
// Prints JSON lines (bench_util.h); the configs' times are in TILEC_PRINT_AUTOTUNING=1's
// output. Exits 77 without a GPU.
#include "bench_util.h"
#include "matmul.tilec.h"

#include <tilec/runtime.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

constexpr int kSize = 4096;

struct Matrices {
  tl::half *a = nullptr, *b = nullptr, *c = nullptr;
  Matrices() {
    const size_t bytes = size_t(kSize) * kSize * sizeof(tl::half);
    // Random-ish inputs: tensor cores clock higher on zeros, which would flatter the timings.
    std::vector<tl::half> host(size_t(kSize) * kSize);
    for (size_t i = 0; i < host.size(); ++i)
      host[i] = tl::half(float(int(i * 2654435761u % 2001) - 1000) * 1e-3f);
    CHECK_CUDA(cudaMalloc(&a, bytes));
    CHECK_CUDA(cudaMalloc(&b, bytes));
    CHECK_CUDA(cudaMalloc(&c, bytes));
    CHECK_CUDA(cudaMemcpy(a, host.data(), bytes, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(b, host.data(), bytes, cudaMemcpyHostToDevice));
  }
  ~Matrices() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
};

// Wall time (ms) of one autotuned launch and a synchronize.
double first_call_ms(const Matrices &m, cudaStream_t s) {
  auto grid = [](const tilec::Config &meta) {
    return tilec::cdiv(kSize, meta["BLOCK_M"]) * tilec::cdiv(kSize, meta["BLOCK_N"]);
  };
  double t0 = bench::now_s();
  matmul_autotuned<tl::half, false>(grid, s, m.a, m.b, m.c, kSize, kSize, kSize, kSize, kSize,
                                    kSize);
  CHECK_CUDA(cudaStreamSynchronize(s));
  return (bench::now_s() - t0) * 1e3;
}

void remove_choices(const std::string &dir) {
  std::error_code ec;
  for (auto &e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".autotune")
      std::filesystem::remove(e.path(), ec);
}

void bench_first_calls(const std::string &cache, cudaStream_t s) {
  Matrices m;
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::string what = "matmul 4096^3 fp16, 6 configs; ";
  auto s0 = tilec::runtime_stats();
  double cold = first_call_ms(m, s);
  auto s1 = tilec::runtime_stats();
  bench::emit({"autotune matmul (first call, empty cache)", "tilec", cold, "ms", cold,
               what + std::to_string(s1.nvrtc_compiles - s0.nvrtc_compiles) +
                   " NVRTC compiles, configs timed"});

  tilec::clear_memory_cache();
  remove_choices(cache);
  double timing = first_call_ms(m, s);
  auto s2 = tilec::runtime_stats();
  bench::emit(
      {"autotune matmul (first call, cubins cached)", "tilec", timing, "ms", timing,
       what + std::to_string(s2.disk_hits - s1.disk_hits) + " cubins from disk, configs timed"});

  tilec::clear_memory_cache();
  double cached = first_call_ms(m, s);
  auto s3 = tilec::runtime_stats();
  bench::emit({"autotune matmul (first call, choice cached)", "tilec", cached, "ms", cached,
               what + std::to_string(s3.autotune_disk_hits - s2.autotune_disk_hits) +
                   " choice from disk, nothing timed"});

  double memory = first_call_ms(m, s);
  bench::emit({"autotune matmul (later call)", "tilec", memory, "ms", memory,
               what + "choice in memory: one launch + sync"});
}

} // namespace

int main() {
  // The cold call needs an empty cache: point the runtime at a fresh folder before its use.
  char dir_template[] = "/tmp/tilec_bench_autotune_XXXXXX";
  const char *cache = mkdtemp(dir_template);
  if (!cache || setenv("TILEC_CACHE_DIR", cache, 1) != 0) {
    std::perror("bench: temporary cache dir");
    return 1;
  }
  int rc =
      bench::run_on_gpu("bench_autotune", [&](cudaStream_t s) { bench_first_calls(cache, s); });
  std::error_code ec;
  std::filesystem::remove_all(cache, ec);
  return rc;
}
