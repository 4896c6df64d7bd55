// run_gpu.cpp - softmax through the typed launchers that tilec generated. Every CUDA runtime
// call is checked; the launches themselves report errors as tilec::Error.
#include "runners.h"
#include "softmax.tilec.h"

#include "device_buffer.h"

#include <algorithm>
#include <stdexcept>

namespace example {
namespace {

// Programs of the persistent variant: enough to fill every SM a few times over.
uint32_t persistent_programs(int rows) {
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return (uint32_t)std::max(1, std::min(rows, 4 * sms));
}

// The autotuned launchers: BLOCK comes from the row length and num_warps from timing (the
// TILEC_AUTOTUNE declarations in softmax.cpp).
void launch(Variant v, const float *in, float *out, Shape s) {
  if (block_for(s.cols) > kMaxBlock)
    throw std::invalid_argument(kRowTooWide);
  if (v == Variant::row_per_program)
    softmax_kernel_autotuned(tilec::Grid{(uint32_t)s.rows}, nullptr, out, in, s.in_stride,
                             s.out_stride, s.cols);
  else
    softmax_persistent_autotuned(tilec::Grid{persistent_programs(s.rows)}, nullptr, out, in,
                                 s.in_stride, s.out_stride, s.rows, s.cols);
}

} // namespace

void softmax_on_gpu(Variant v, const float *in, size_t in_len, float *out, size_t out_len,
                    Shape s) {
  // Exactly the host sizes, so that a memory checker sees any overread.
  DeviceBuffer<float> din(in, in_len), dout(out_len);
  dout.poison();
  launch(v, din.data(), dout.data(), s);
  sync_device();
  dout.copy_to(out);
}

double time_on_gpu_ms(Variant v, int rows, int cols) {
  size_t n = size_t(rows) * cols;
  DeviceBuffer<float> din(n), dout(n);
  din.zero();
  Shape s{rows, cols, cols, cols};
  return median_launch_ms([&] { launch(v, din.data(), dout.data(), s); });
}

} // namespace example
