// The GPU path: device buffers and the launcher tilec wrote (vadd.tilec.h).
#include "vadd.tilec.h"

#include <cuda_runtime.h>

#include <vector>

bool add_on_gpu(const std::vector<float> &x, const std::vector<float> &y, std::vector<float> &out) {
  int n = int(x.size());
  size_t bytes = x.size() * sizeof(float);
  float *dx = nullptr, *dy = nullptr, *dout = nullptr;
  bool ok = cudaMalloc(&dx, bytes) == cudaSuccess && cudaMalloc(&dy, bytes) == cudaSuccess &&
            cudaMalloc(&dout, bytes) == cudaSuccess &&
            cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess &&
            cudaMemcpy(dy, y.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess;
  if (ok) {
    vadd<256>(tilec::Grid{(uint32_t)tilec::cdiv(n, 256)}, nullptr, dx, dy, dout, n,
              {.num_warps = 4, .num_stages = 1});
    ok = cudaDeviceSynchronize() == cudaSuccess &&
         cudaMemcpy(out.data(), dout, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
  }
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dout);
  return ok;
}
