// run_gpu.cpp - dropout through the typed launcher that tilec generated. Every CUDA runtime
// call is checked; the launch itself reports errors as tilec::Error.
#include "dropout.tilec.h"
#include "runners.h"

#include "device_buffer.h"

namespace example {

void dropout_on_gpu(const float *x, float *out, int n, size_t out_len, float p, int seed) {
  DeviceBuffer<float> dx(x, n), dout(out_len);
  dout.poison();
  dropout_kernel<kBlock>(tilec::Grid{(uint32_t)tilec::cdiv(n, kBlock)}, nullptr, dx.data(),
                         dout.data(), n, p, seed, {.num_warps = kWarps});
  sync_device();
  dout.copy_to(out);
}

} // namespace example
