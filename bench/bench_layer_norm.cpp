// bench_layer_norm.cpp - layer norm (examples/layer_norm) through tilec's NVRTC path, fp16,
// 4096 rows of 4096 and 8192 values, BLOCK = the row (held in registers).
//   forward: bytes = x read + y written (2 * M * N * 2) + w, b read + mean, rstd written.
//   backward (both kernels, timed together): bytes = x, dy read + dx written (3 * M * N * 2)
//     + mean, rstd, w read + dw, db written. The fp32 partial dw/db rows that the first
//     kernel writes and the second reads (2 * 2 * groups * N * 4) are not counted: they are
//     the method's overhead, not the problem's.
// Prints JSON lines (bench_util.h); report.py keeps the best config. Exits 77 without a GPU.
#include "bench_util.h"
#include "layer_norm.tilec.h"

#include <tilec/runtime.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int kRows = 4096;
constexpr int kDwdbBlock = 64, kDwdbWarps = 2; // as examples/layer_norm/runners.h
using half = tl::half;

template <class T> T *device_alloc(size_t n, unsigned char fill) {
  T *p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, n * sizeof(T)));
  CHECK_CUDA(cudaMemset(p, fill, n * sizeof(T)));
  return p;
}

// Every array of one problem; 0x3C bytes are 1.0039 in fp16 (finite), 0 keeps rstd finite.
struct Buffers {
  half *x, *y, *w, *b, *dy, *dx, *dw, *db;
  float *mean, *rstd, *dw_part, *db_part;
  Buffers(size_t n, int cols, int groups) {
    x = device_alloc<half>(n, 0x3C);
    y = device_alloc<half>(n, 0);
    dy = device_alloc<half>(n, 0x3C);
    dx = device_alloc<half>(n, 0);
    w = device_alloc<half>(cols, 0x3C);
    b = device_alloc<half>(cols, 0x3C);
    dw = device_alloc<half>(cols, 0);
    db = device_alloc<half>(cols, 0);
    mean = device_alloc<float>(kRows, 0);
    rstd = device_alloc<float>(kRows, 0);
    dw_part = device_alloc<float>(size_t(groups) * cols, 0);
    db_part = device_alloc<float>(size_t(groups) * cols, 0);
    CHECK_CUDA(cudaDeviceSynchronize()); // the benchmark stream does not wait for memsets
  }
  ~Buffers() {
    for (void *p : {(void *)x, (void *)y, (void *)w, (void *)b, (void *)dy, (void *)dx, (void *)dw,
                    (void *)db, (void *)mean, (void *)rstd, (void *)dw_part, (void *)db_part})
      cudaFree(p);
  }
};

std::string shape(int cols) { return std::to_string(kRows) + "x" + std::to_string(cols) + " fp16"; }

int sm_count() {
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return sms;
}

template <int BLOCK> void bench_forward(int cols, int warps, cudaStream_t s) {
  const size_t n = size_t(kRows) * cols;
  const size_t bytes = 2 * n * 2 + 2 * cols * 2 + 2 * kRows * 4;
  const size_t sets = bench::buffer_sets(bytes);
  std::vector<std::unique_ptr<Buffers>> bufs;
  for (size_t i = 0; i < sets; ++i)
    bufs.push_back(std::make_unique<Buffers>(n, cols, 1));
  double ms = bench::median_ms(
      [&](int i) {
        Buffers &b = *bufs[i % sets];
        layer_norm_fwd<BLOCK>(tilec::Grid{kRows}, s, b.x, b.y, b.w, b.b, b.mean, b.rstd, cols, cols,
                              1e-5f, {.num_warps = warps});
      },
      s);
  bench::emit({"layer norm fwd " + shape(cols), "tilec", ms, "GB/s", bytes / (ms * 1e6),
               "BLOCK=" + std::to_string(BLOCK) + " num_warps=" + std::to_string(warps) +
                   " buffer_sets=" + std::to_string(sets)});
}

template <int BLOCK> void bench_backward(int cols, int warps, int groups, cudaStream_t s) {
  const size_t n = size_t(kRows) * cols;
  const size_t bytes = 3 * n * 2 + 2 * kRows * 4 + 3 * cols * 2;
  const size_t sets = bench::buffer_sets(bytes);
  std::vector<std::unique_ptr<Buffers>> bufs;
  for (size_t i = 0; i < sets; ++i)
    bufs.push_back(std::make_unique<Buffers>(n, cols, groups));
  auto dx_kernel = [&](int i) {
    Buffers &b = *bufs[i % sets];
    layer_norm_bwd_dx<BLOCK>(tilec::Grid{(uint32_t)groups}, s, b.dx, b.dy, b.dw_part, b.db_part,
                             b.x, b.w, b.mean, b.rstd, cols, kRows, cols, {.num_warps = warps});
  };
  auto dwdb_kernel = [&](int i) {
    Buffers &b = *bufs[i % sets];
    layer_norm_bwd_dwdb<kDwdbBlock>(tilec::Grid{(uint32_t)tilec::cdiv(cols, kDwdbBlock)}, s,
                                    b.dw_part, b.db_part, b.dw, b.db, groups, cols,
                                    {.num_warps = kDwdbWarps});
  };
  double ms = bench::median_ms(
      [&](int i) {
        dx_kernel(i);
        dwdb_kernel(i);
      },
      s);
  // Each kernel alone too, to show where the time goes.
  double dx_ms = bench::median_ms(dx_kernel, s), dwdb_ms = bench::median_ms(dwdb_kernel, s);
  char split[96];
  std::snprintf(split, sizeof split, " (dx kernel %.1f us, dw/db kernel %.1f us)", dx_ms * 1e3,
                dwdb_ms * 1e3);
  bench::emit({"layer norm bwd " + shape(cols), "tilec", ms, "GB/s", bytes / (ms * 1e6),
               "BLOCK=" + std::to_string(BLOCK) + " num_warps=" + std::to_string(warps) +
                   " groups=" + std::to_string(groups) + split + " buffer_sets=" +
                   std::to_string(sets) + "; bytes exclude the partial dw/db rows"});
}

template <int BLOCK> void bench_all(int cols, cudaStream_t s) {
  for (int warps : {4, 8, 16, 32})
    bench_forward<BLOCK>(cols, warps, s);
  const int sms = sm_count();
  for (int warps : {4, 8, 16})
    for (int per_sm : {1, 2})
      bench_backward<BLOCK>(cols, warps, per_sm * sms, s);
}

} // namespace

int main() {
  return bench::run_on_gpu("bench_layer_norm", [](cudaStream_t s) {
    bench_all<4096>(4096, s);
    bench_all<8192>(8192, s);
  });
}
