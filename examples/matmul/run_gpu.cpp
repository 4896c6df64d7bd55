// run_gpu.cpp - matmul through the typed launchers that tilec generated: the autotuned one
// (kAutotuned) or the one of a fixed config. Every CUDA runtime call is checked; the launches
// themselves report errors as tilec::Error.
#include "matmul.tilec.h"
#include "runners.h"

#include "device_buffer.h"

#include <stdexcept>

namespace example {
namespace {

template <class T, bool LEAKY>
void launch(const Problem &p, const T *a, const T *b, T *c, const Config &cfg) {
  if (cfg == kAutotuned) {
    // Triton's grid = lambda META: (cdiv(M, META["BLOCK_M"]) * cdiv(N, META["BLOCK_N"]),)
    auto grid = [&](const tilec::Config &meta) {
      return tilec::cdiv(p.M, meta["BLOCK_M"]) * tilec::cdiv(p.N, meta["BLOCK_N"]);
    };
    matmul_autotuned<T, LEAKY>(grid, nullptr, a, b, c, p.M, p.N, p.K, p.lda, p.ldb, p.ldc);
    return;
  }
  if (!(cfg == kGpuConfig))
    throw std::invalid_argument(kBadConfig);
  matmul<128, 128, 32, 8, T, LEAKY>(tilec::Grid{programs_for(p, cfg)}, nullptr, a, b, c, p.M,
                                     p.N, p.K, p.lda, p.ldb, p.ldc,
                                     {.num_warps = cfg.num_warps, .num_stages = cfg.num_stages});
}

template <class T>
void launch_act(const Problem &p, const T *a, const T *b, T *c, const Config &cfg, bool leaky) {
  if (leaky)
    launch<T, true>(p, a, b, c, cfg);
  else
    launch<T, false>(p, a, b, c, cfg);
}

} // namespace

template <class T>
void matmul_on_gpu(const Problem &p, const Matrices<T> &m, const Config &c, bool leaky_relu) {
  // Exactly the host sizes, so that a memory checker sees any overread.
  DeviceBuffer<T> a(m.a, m.a_len), b(m.b, m.b_len), out(m.c_len);
  out.poison();
  launch_act(p, a.data(), b.data(), out.data(), c, leaky_relu);
  sync_device();
  out.copy_to(m.c);
}

template <class T>
double time_on_gpu_ms(const Problem &p, const Matrices<T> &m, const Config &c, bool leaky_relu) {
  // Real data: tensor cores draw less power (and clock higher) on zeros.
  DeviceBuffer<T> a(m.a, m.a_len), b(m.b, m.b_len), out(m.c_len);
  return median_launch_ms([&] { launch_act(p, a.data(), b.data(), out.data(), c, leaky_relu); });
}

template void matmul_on_gpu<tl::half>(const Problem &, const Matrices<tl::half> &, const Config &,
                                      bool);
template void matmul_on_gpu<tl::bfloat16>(const Problem &, const Matrices<tl::bfloat16> &,
                                          const Config &, bool);
template double time_on_gpu_ms<tl::half>(const Problem &, const Matrices<tl::half> &,
                                         const Config &, bool);
template double time_on_gpu_ms<tl::bfloat16>(const Problem &, const Matrices<tl::bfloat16> &,
                                             const Config &, bool);

} // namespace example
