// bench_softmax.cpp - row softmax (examples/softmax) through tilec's NVRTC path: 4096 rows of
// 1024, 4096 and 16384 fp32 values, BLOCK = the next power of two >= the row, for both the
// one-row-per-program and the persistent kernel over several num_warps (and programs per SM
// for the persistent one). Bytes: each element read once and written once (2 * M * N * 4).
// Prints JSON lines (bench_util.h); report.py keeps the best config. Exits 77 without a GPU.
#include "bench_util.h"
#include "softmax.tilec.h"

#include <tilec/runtime.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int kRows = 4096;

struct Buffers {
  float *in = nullptr, *out = nullptr;
  explicit Buffers(size_t n) {
    CHECK_CUDA(cudaMalloc(&in, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&out, n * sizeof(float)));
    CHECK_CUDA(cudaMemset(in, 0, n * sizeof(float)));
    CHECK_CUDA(cudaDeviceSynchronize()); // the benchmark stream does not wait for memsets
  }
  ~Buffers() {
    cudaFree(in);
    cudaFree(out);
  }
};

// programs_per_sm == 0: one program per row; else the persistent kernel on that many per SM.
template <int BLOCK> void bench_shape(int cols, int warps, int programs_per_sm, cudaStream_t s) {
  const size_t n = size_t(kRows) * cols, bytes = 2 * n * sizeof(float);
  const size_t sets = bench::buffer_sets(bytes);
  std::vector<std::unique_ptr<Buffers>> bufs;
  for (size_t i = 0; i < sets; ++i)
    bufs.push_back(std::make_unique<Buffers>(n));
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  uint32_t programs = programs_per_sm ? uint32_t(std::min(kRows, programs_per_sm * sms)) : kRows;
  auto run = [&](int i) {
    Buffers &b = *bufs[i % sets];
    if (programs_per_sm)
      softmax_persistent<BLOCK>(tilec::Grid{programs}, s, b.out, b.in, cols, cols, kRows, cols,
                                {.num_warps = warps});
    else
      softmax_kernel<BLOCK>(tilec::Grid{programs}, s, b.out, b.in, cols, cols, cols,
                            {.num_warps = warps});
  };
  double ms = bench::median_ms(run, s);
  std::string config = programs_per_sm
                           ? "persistent, " + std::to_string(programs_per_sm) + " programs/SM, "
                           : "one row per program, ";
  bench::emit({"softmax " + std::to_string(kRows) + "x" + std::to_string(cols) + " fp32", "tilec",
               ms, "GB/s", bytes / (ms * 1e6),
               config + "BLOCK=" + std::to_string(BLOCK) + " num_warps=" + std::to_string(warps) +
                   " buffer_sets=" + std::to_string(sets)});
}

template <int BLOCK> void bench_all(int cols, cudaStream_t s) {
  for (int warps : {1, 2, 4, 8, 16, 32}) {
    if (BLOCK / (32 * warps) > 64 || BLOCK < 32 * warps)
      continue; // too many values per thread, or idle threads
    bench_shape<BLOCK>(cols, warps, 0, s);
    for (int per_sm : {4, 8})
      bench_shape<BLOCK>(cols, warps, per_sm, s);
  }
}

} // namespace

int main() {
  return bench::run_on_gpu("bench_softmax", [](cudaStream_t s) {
    bench_all<1024>(1024, s);
    bench_all<4096>(4096, s);
    bench_all<16384>(16384, s);
  });
}
