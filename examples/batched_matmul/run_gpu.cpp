// run_gpu.cpp - batched matmul through the typed launcher that tilec generated. Every CUDA
// runtime call is checked; the launches themselves report errors as tilec::Error.
#include "batched_matmul.tilec.h"
#include "runners.h"

#include "device_buffer.h"

#include <stdexcept>

namespace example {
namespace {

void launch(const Problem &p, const tl::half *a, const tl::half *b, tl::half *c,
            const Config &cfg) {
  if (!(cfg == kGpuConfig))
    throw std::invalid_argument(kBadConfig);
  batched_matmul<128, 128, 32, 8, tl::half>(
      tilec::Grid{programs_for(p, cfg), uint32_t(p.batch)}, nullptr, a, b, c, p.M, p.N, p.K,
      p.stride_a, p.lda, p.stride_b, p.ldb, p.stride_c, p.ldc,
      {.num_warps = cfg.num_warps, .num_stages = cfg.num_stages});
}

} // namespace

void batched_matmul_on_gpu(const Problem &p, const Matrices &m, const Config &c) {
  // Exactly the host sizes, so that a memory checker sees any overread.
  DeviceBuffer<tl::half> a(m.a, m.a_len), b(m.b, m.b_len), out(m.c_len);
  out.poison();
  launch(p, a.data(), b.data(), out.data(), c);
  sync_device();
  out.copy_to(m.c);
}

double time_on_gpu_ms(const Problem &p, const Matrices &m, const Config &c) {
  // Real data: tensor cores draw less power (and clock higher) on zeros.
  DeviceBuffer<tl::half> a(m.a, m.a_len), b(m.b, m.b_len), out(m.c_len);
  return median_launch_ms([&] { launch(p, a.data(), b.data(), out.data(), c); });
}

} // namespace example
