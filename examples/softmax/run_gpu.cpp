// run_gpu.cpp - softmax through the typed launchers that tilec generated. Every CUDA runtime
// call is checked; the launches themselves report errors as tilec::Error.
#include "runners.h"
#include "softmax.tilec.h"

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

// Programs of the persistent variant: enough to fill every SM a few times over.
uint32_t persistent_programs(int rows) {
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return (uint32_t)std::max(1, std::min(rows, 4 * sms));
}

template <int BLOCK> void run(Variant v, const float *in, float *out, Shape s) {
  const int warps = warps_for(BLOCK);
  if (v == Variant::row_per_program)
    softmax_kernel<BLOCK>(tilec::Grid{(uint32_t)s.rows}, nullptr, out, in, s.in_stride,
                          s.out_stride, s.cols, {.num_warps = warps});
  else
    softmax_persistent<BLOCK>(tilec::Grid{persistent_programs(s.rows)}, nullptr, out, in,
                              s.in_stride, s.out_stride, s.rows, s.cols, {.num_warps = warps});
}

template <int BLOCK> void dispatch(int block, Variant v, const float *in, float *out, Shape s) {
  if constexpr (BLOCK > kMaxBlock)
    throw std::invalid_argument("softmax: row too wide");
  else if (block == BLOCK)
    run<BLOCK>(v, in, out, s);
  else
    dispatch<BLOCK * 2>(block, v, in, out, s);
}

void launch(Variant v, const float *in, float *out, Shape s) {
  dispatch<32>(block_for(s.cols), v, in, out, s);
}

} // namespace

void softmax_on_gpu(Variant v, const float *in, size_t in_len, float *out, size_t out_len,
                    Shape s) {
  // Exactly the host sizes, so that a memory checker sees any overread.
  DeviceBuffer<float> din(in_len), dout(out_len);
  CHECK_CUDA(cudaMemcpy(din.ptr, in, in_len * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dout.ptr, 0xFF, out_len * sizeof(float)));
  launch(v, din.ptr, dout.ptr, s);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(out, dout.ptr, out_len * sizeof(float), cudaMemcpyDeviceToHost));
}

double time_on_gpu_ms(Variant v, int rows, int cols) {
  size_t n = size_t(rows) * cols;
  DeviceBuffer<float> din(n), dout(n);
  CHECK_CUDA(cudaMemset(din.ptr, 0, n * sizeof(float)));
  Shape s{rows, cols, cols, cols};
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  launch(v, din.ptr, dout.ptr, s); // warm-up (and compile)
  std::vector<float> ms(10);
  for (float &t : ms) {
    CHECK_CUDA(cudaEventRecord(start));
    launch(v, din.ptr, dout.ptr, s);
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    CHECK_CUDA(cudaEventElapsedTime(&t, start, stop));
  }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

} // namespace example
