// run_gpu.cpp - vector add through the typed launcher that tilec generated. Every CUDA
// runtime call is checked; the kernel launch itself reports errors as tilec::Error.
#include "runners.h"
#include "vector_add.tilec.h"

#include "device_buffer.h"

namespace example {
namespace {

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
  DeviceBuffer<T> dx(x, n), dy(y, n), dout(out_len);
  dout.poison();
  launch(dx.data(), dy.data(), dout.data(), n);
  sync_device();
  dout.copy_to(out);
}

template <class T> double time_ms(int n) {
  DeviceBuffer<T> dx(n), dy(n), dout(n);
  dx.zero();
  dy.zero();
  return median_launch_ms([&] { launch(dx.data(), dy.data(), dout.data(), n); });
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
