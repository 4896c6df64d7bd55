// run_gpu.cpp - vector add through the typed launcher that tilec generated. Every CUDA
// runtime call is checked; the kernel launch itself reports errors as tilec::Error.
#include "runners.h"
#include "vector_add.tilec.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess)                                                                       \
      throw std::runtime_error(std::string(#call) + " failed: " + cudaGetErrorString(err_) +       \
                               " (" __FILE__ ":" + std::to_string(__LINE__) + ")");                \
  } while (0)

namespace example {
namespace {

// Owns one device allocation.
template <class T> struct DeviceBuffer {
  T *ptr = nullptr;
  explicit DeviceBuffer(size_t count) {
    CHECK_CUDA(cudaMalloc(&ptr, std::max<size_t>(count, 1) * sizeof(T)));
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
};

void launch(const float *x, const float *y, float *out, int n) {
  add_kernel<kBlockF32>(tilec::Grid{(uint32_t)tilec::cdiv(n, kBlockF32)}, nullptr, x, y, out, n,
                        {.num_warps = kWarpsF32});
}

void launch(const tl::half *x, const tl::half *y, tl::half *out, int n) {
  add_kernel_t<tl::half, kBlockF16>(tilec::Grid{(uint32_t)tilec::cdiv(n, kBlockF16)}, nullptr, x, y,
                                    out, n, {.num_warps = kWarpsF16});
}

template <class T> void add(const T *x, const T *y, T *out, int n, size_t out_len) {
  // Inputs are allocated with exactly n elements so a memory checker sees any overread.
  DeviceBuffer<T> dx(n), dy(n), dout(out_len);
  CHECK_CUDA(cudaMemcpy(dx.ptr, x, n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy.ptr, y, n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dout.ptr, 0xFF, out_len * sizeof(T)));
  launch(dx.ptr, dy.ptr, dout.ptr, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(out, dout.ptr, out_len * sizeof(T), cudaMemcpyDeviceToHost));
}

template <class T> double time_ms(int n) {
  DeviceBuffer<T> dx(n), dy(n), dout(n);
  CHECK_CUDA(cudaMemset(dx.ptr, 0, n * sizeof(T)));
  CHECK_CUDA(cudaMemset(dy.ptr, 0, n * sizeof(T)));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  launch(dx.ptr, dy.ptr, dout.ptr, n); // warm-up
  std::vector<float> ms(10);
  for (float &t : ms) {
    CHECK_CUDA(cudaEventRecord(start));
    launch(dx.ptr, dy.ptr, dout.ptr, n);
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    CHECK_CUDA(cudaEventElapsedTime(&t, start, stop));
  }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

} // namespace

void add_on_gpu(const float *x, const float *y, float *out, int n, size_t out_len) {
  add(x, y, out, n, out_len);
}
void add_on_gpu(const tl::half *x, const tl::half *y, tl::half *out, int n, size_t out_len) {
  add(x, y, out, n, out_len);
}
double time_on_gpu_ms(bool half, int n) { return half ? time_ms<tl::half>(n) : time_ms<float>(n); }

} // namespace example
