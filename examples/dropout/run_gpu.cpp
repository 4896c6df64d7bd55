// run_gpu.cpp - dropout through the typed launcher that tilec generated. Every CUDA runtime
// call is checked; the launch itself reports errors as tilec::Error.
#include "dropout.tilec.h"
#include "runners.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess)                                                                       \
      throw std::runtime_error(std::string(#call) + " failed: " + cudaGetErrorString(err_) +       \
                               " (" __FILE__ ":" + std::to_string(__LINE__) + ")");                \
  } while (0)

namespace example {

void dropout_on_gpu(const float *x, float *out, int n, size_t out_len, float p, int seed) {
  float *dx = nullptr, *dout = nullptr;
  CHECK_CUDA(cudaMalloc(&dx, std::max(n, 1) * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, out_len * sizeof(float)));
  try {
    CHECK_CUDA(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(dout, 0xFF, out_len * sizeof(float)));
    dropout_kernel<kBlock>(tilec::Grid{(uint32_t)tilec::cdiv(n, kBlock)}, nullptr, dx, dout, n, p,
                           seed, {.num_warps = kWarps});
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(out, dout, out_len * sizeof(float), cudaMemcpyDeviceToHost));
  } catch (...) {
    cudaFree(dx);
    cudaFree(dout);
    throw;
  }
  cudaFree(dx);
  cudaFree(dout);
}

} // namespace example
