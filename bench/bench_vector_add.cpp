// bench_vector_add.cpp - vector add through tilec's NVRTC path on one GPU:
//   1. compile time of the first launch: cold (empty TILEC_CACHE_DIR), warm disk cache
//      (after clear_memory_cache()), warm memory cache;
//   2. host launch overhead: back-to-back launches of a one-tile add, against an empty nvcc
//      kernel launched with cudaLaunchKernel;
//   3. bandwidth at n = 2^24 and 2^28, fp32 and fp16, for several (BLOCK, num_warps).
// Prints JSON lines (bench_util.h). Exits 77 without a GPU.
#include "bench_util.h"
#include "empty_kernel.h"
#include "vector_add.tilec.h"

#include <tilec/runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using bench::Row;

constexpr int kWarmup = 10, kReps = 50;
constexpr int kTinyN = 1024, kLaunches = 20000;

template <class T> const char *dtype_name() { return std::is_same_v<T, float> ? "fp32" : "fp16"; }

template <class T, int BLOCK>
void launch_add(const T *x, const T *y, T *out, int n, int warps, cudaStream_t s) {
  tilec::Grid grid{(uint32_t)tilec::cdiv(n, BLOCK)};
  if constexpr (std::is_same_v<T, float>)
    add_kernel<BLOCK>(grid, s, x, y, out, n, {.num_warps = warps});
  else
    add_kernel_t<T, BLOCK>(grid, s, x, y, out, n, {.num_warps = warps});
}

// x, y, out of n elements each.
template <class T> struct BufferSet {
  T *x = nullptr, *y = nullptr, *out = nullptr;
  explicit BufferSet(size_t n) {
    CHECK_CUDA(cudaMalloc(&x, n * sizeof(T)));
    CHECK_CUDA(cudaMalloc(&y, n * sizeof(T)));
    CHECK_CUDA(cudaMalloc(&out, n * sizeof(T)));
    CHECK_CUDA(cudaMemset(x, 0x3C, n * sizeof(T))); // finite, non-zero values
    CHECK_CUDA(cudaMemset(y, 0x3C, n * sizeof(T)));
    // The benchmark streams do not wait for the legacy stream the memsets ran on.
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  ~BufferSet() {
    cudaFree(x);
    cudaFree(y);
    cudaFree(out);
  }
};

// Wall time of one launch + synchronize, in ms.
double timed_launch_ms(cudaStream_t s) {
  BufferSet<float> b(kTinyN);
  double t0 = bench::now_s();
  launch_add<float, 1024>(b.x, b.y, b.out, kTinyN, 4, s);
  CHECK_CUDA(cudaStreamSynchronize(s));
  return (bench::now_s() - t0) * 1e3;
}

void bench_compile(cudaStream_t s) {
  tilec::RuntimeStats before = tilec::runtime_stats();
  double cold = timed_launch_ms(s);
  tilec::RuntimeStats after_cold = tilec::runtime_stats();
  tilec::clear_memory_cache();
  double disk = timed_launch_ms(s);
  tilec::RuntimeStats after_disk = tilec::runtime_stats();
  double memory = timed_launch_ms(s);
  std::string spec = "add_kernel<1024> num_warps=4; ";
  bench::emit({"compile vector add (first call)", "tilec", cold, "ms", cold,
               spec + std::to_string(after_cold.nvrtc_compiles - before.nvrtc_compiles) +
                   " NVRTC compile(s), empty cache dir"});
  bench::emit(
      {"compile vector add (warm disk cache)", "tilec", disk, "ms", disk,
       spec + std::to_string(after_disk.disk_hits - after_cold.disk_hits) + " disk hit(s)"});
  bench::emit({"compile vector add (warm memory cache)", "tilec", memory, "ms", memory,
               spec + "launch + sync of a compiled kernel"});
}

void bench_launch_overhead(cudaStream_t s) {
  BufferSet<float> b(kTinyN);
  auto per_launch_us = [&](auto launch) {
    launch(1000); // warm-up
    CHECK_CUDA(cudaStreamSynchronize(s));
    double t0 = bench::now_s();
    launch(kLaunches);
    CHECK_CUDA(cudaStreamSynchronize(s));
    return (bench::now_s() - t0) * 1e6 / kLaunches;
  };
  double tilec_us = per_launch_us([&](int count) {
    for (int i = 0; i < count; ++i)
      launch_add<float, 1024>(b.x, b.y, b.out, kTinyN, 4, s);
  });
  double empty_us = per_launch_us([&](int count) { launch_empty_kernels(count, s); });
  // Host cost alone: short bursts that never fill the launch queue, timed up to the last
  // enqueue (the GPU is idle at the start of each burst), median over bursts.
  auto enqueue_us = [&](auto launch) {
    constexpr int kBurst = 64, kBursts = 300;
    std::vector<double> per;
    for (int b = 0; b < kBursts; ++b) {
      CHECK_CUDA(cudaStreamSynchronize(s));
      double t0 = bench::now_s();
      launch(kBurst);
      per.push_back((bench::now_s() - t0) * 1e6 / kBurst);
    }
    CHECK_CUDA(cudaStreamSynchronize(s));
    std::sort(per.begin(), per.end());
    return per[per.size() / 2];
  };
  double tilec_host = enqueue_us([&](int count) {
    for (int i = 0; i < count; ++i)
      launch_add<float, 1024>(b.x, b.y, b.out, kTinyN, 4, s);
  });
  double empty_host = enqueue_us([&](int count) { launch_empty_kernels(count, s); });
  bench::emit({"launch enqueue, host (tiny add)", "tilec", tilec_host / 1e3, "us/launch",
               tilec_host, "median of 300 bursts of 64 launches, no queue back-pressure"});
  bench::emit({"launch enqueue, host (empty kernel)", "cuda", empty_host / 1e3, "us/launch",
               empty_host, "cudaLaunchKernel of an empty nvcc kernel, same bursts"});
  std::string note =
      std::to_string(kLaunches) + " back-to-back launches, n=" + std::to_string(kTinyN);
  bench::emit({"launch overhead (tiny add)", "tilec", tilec_us / 1e3, "us/launch", tilec_us, note});
  bench::emit({"launch overhead (empty kernel)", "cuda", empty_us / 1e3, "us/launch", empty_us,
               note + ", cudaLaunchKernel of an empty nvcc kernel"});
}

// Median over kReps of one launch (cudaEvent timing), rotating through enough buffer sets
// that a small problem is not served from L2.
template <class T, int BLOCK> void bench_bandwidth(int log2n, int warps, cudaStream_t s) {
  const size_t n = size_t(1) << log2n;
  const size_t bytes = 3 * n * sizeof(T);
  int l2 = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  size_t sets = bytes < 2 * size_t(l2) ? (4 * size_t(l2) + bytes - 1) / bytes : 1;
  std::vector<std::unique_ptr<BufferSet<T>>> bufs;
  for (size_t i = 0; i < sets; ++i)
    bufs.push_back(std::make_unique<BufferSet<T>>(n));

  auto run = [&](int i) {
    BufferSet<T> &b = *bufs[i % sets];
    launch_add<T, BLOCK>(b.x, b.y, b.out, int(n), warps, s);
  };
  for (int i = 0; i < kWarmup; ++i)
    run(i);
  std::vector<cudaEvent_t> ev(2 * kReps);
  for (cudaEvent_t &e : ev)
    CHECK_CUDA(cudaEventCreate(&e));
  for (int i = 0; i < kReps; ++i) {
    CHECK_CUDA(cudaEventRecord(ev[2 * i], s));
    run(i);
    CHECK_CUDA(cudaEventRecord(ev[2 * i + 1], s));
  }
  CHECK_CUDA(cudaStreamSynchronize(s));
  std::vector<double> ms(kReps);
  for (int i = 0; i < kReps; ++i) {
    float t = 0;
    CHECK_CUDA(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]));
    ms[i] = t;
  }
  for (cudaEvent_t e : ev)
    CHECK_CUDA(cudaEventDestroy(e));
  double med = bench::median(ms);
  bench::emit({"vector add n=2^" + std::to_string(log2n) + " " + dtype_name<T>(), "tilec", med,
               "GB/s", bytes / (med * 1e6),
               "BLOCK=" + std::to_string(BLOCK) + " num_warps=" + std::to_string(warps) +
                   " buffer_sets=" + std::to_string(sets)});
}

template <class T> void bench_all_configs(int log2n, cudaStream_t s) {
  for (int warps : {4, 8}) {
    bench_bandwidth<T, 1024>(log2n, warps, s);
    bench_bandwidth<T, 2048>(log2n, warps, s);
    bench_bandwidth<T, 4096>(log2n, warps, s);
  }
}

} // namespace

int main() {
  // The cold compile needs an empty cache: point the runtime at a fresh folder before its
  // first use.
  char dir_template[] = "/tmp/tilec_bench_cache_XXXXXX";
  const char *cache = mkdtemp(dir_template);
  if (!cache || setenv("TILEC_CACHE_DIR", cache, 1) != 0) {
    std::perror("bench: temporary cache dir");
    return 1;
  }
  int rc = bench::run_on_gpu("bench_vector_add", [](cudaStream_t s) {
    // Create the context and load the driver before timing the first compile.
    launch_empty_kernels(1, s);
    CHECK_CUDA(cudaStreamSynchronize(s));
    bench_compile(s);
    bench_launch_overhead(s);
    for (int log2n : {24, 28}) {
      bench_all_configs<float>(log2n, s);
      bench_all_configs<tl::half>(log2n, s);
    }
  });
  std::error_code ec;
  std::filesystem::remove_all(cache, ec);
  return rc;
}
