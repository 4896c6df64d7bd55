// run_gpu.cpp - attention through the typed launchers that tilec generated: the autotuned
// ones (kAutotuned) or kSmallConfig's blocks. Every CUDA runtime call is checked; the launches
// themselves report errors as tilec::Error.
#include "fused_attention.tilec.h"
#include "runners.h"

#include "device_buffer.h"

#include <stdexcept>

namespace example {
namespace {

constexpr Config kC = kSmallConfig;

uint32_t blocks(int n, int block) { return uint32_t(tilec::cdiv(n, block)); }

void require_known(const Config &c) {
  if (!(c == kAutotuned) && !(c == kSmallConfig))
    throw std::invalid_argument(kBadConfig);
}

} // namespace

template <class T> void forward_on_gpu(const Shape &s, const Tensors<T> &t, const Config &c) {
  require_known(c);
  DeviceBuffer<T> q(t.q, s.q_elems()), k(t.k, s.kv_elems()), v(t.v, s.kv_elems()), o(s.q_elems());
  DeviceBuffer<float> m(s.rows());
  o.poison();
  m.poison();
  with_variant(s, [&](auto d, auto causal, auto window) {
    constexpr int D = decltype(d)::value;
    constexpr bool C = decltype(causal)::value, W = decltype(window)::value;
    if (c == kAutotuned) {
      auto grid = [&](const tilec::Config &meta) {
        return tilec::Grid{blocks(s.N, meta["BLOCK_M"]), uint32_t(s.Z * s.H)};
      };
      attn_fwd_autotuned<D, C, W, T>(grid, nullptr, q.data(), k.data(), v.data(), o.data(),
                                     m.data(), s.sm_scale, s.N, s.H, s.H_KV, s.window);
    } else {
      attn_fwd<kC.fwd_m, kC.fwd_n, D, C, W, T>(
          tilec::Grid{blocks(s.N, kC.fwd_m), uint32_t(s.Z * s.H)}, nullptr, q.data(), k.data(),
          v.data(), o.data(), m.data(), s.sm_scale, s.N, s.H, s.H_KV, s.window,
          {.num_warps = kC.num_warps, .num_stages = kC.num_stages});
    }
  });
  sync_device();
  o.copy_to(t.o);
  m.copy_to(t.m);
}

template <class T> void backward_on_gpu(const Shape &s, const Tensors<T> &t, const Config &c) {
  require_known(c);
  DeviceBuffer<T> q(t.q, s.q_elems()), k(t.k, s.kv_elems()), v(t.v, s.kv_elems()),
      o(t.o, s.q_elems()), d_o(t.d_o, s.q_elems());
  DeviceBuffer<float> m(t.m, s.rows()), delta(s.rows());
  DeviceBuffer<T> dq(s.q_elems()), dk(s.kv_elems()), dv(s.kv_elems());
  delta.poison();
  dq.poison();
  dk.poison();
  dv.poison();
  with_variant(s, [&](auto d, auto causal, auto window) {
    constexpr int D = decltype(d)::value;
    constexpr bool C = decltype(causal)::value, W = decltype(window)::value;
    const uint32_t heads = uint32_t(s.Z * s.H), kv_heads = uint32_t(s.Z * s.H_KV);
    if (c == kAutotuned) {
      attn_bwd_preprocess<kPreprocessBlock, D, T>(tilec::Grid{blocks(s.N, kPreprocessBlock), heads},
                                                  nullptr, o.data(), d_o.data(), delta.data(), s.N,
                                                  {.num_warps = 4});
      auto dkdv_grid = [&](const tilec::Config &meta) {
        return tilec::Grid{blocks(s.N, meta["BLOCK_N"]), kv_heads};
      };
      attn_bwd_dkdv_autotuned<D, C, W, T>(dkdv_grid, nullptr, q.data(), k.data(), v.data(),
                                          d_o.data(), m.data(), delta.data(), dk.data(), dv.data(),
                                          s.sm_scale, s.N, s.H, s.H_KV, s.window);
      auto dq_grid = [&](const tilec::Config &meta) {
        return tilec::Grid{blocks(s.N, meta["BLOCK_M"]), heads};
      };
      attn_bwd_dq_autotuned<D, C, W, T>(dq_grid, nullptr, q.data(), k.data(), v.data(), d_o.data(),
                                        m.data(), delta.data(), dq.data(), s.sm_scale, s.N, s.H,
                                        s.H_KV, s.window);
    } else {
      const tilec::LaunchOptions opts{.num_warps = kC.num_warps, .num_stages = kC.num_stages};
      attn_bwd_preprocess<kC.fwd_m, D, T>(tilec::Grid{blocks(s.N, kC.fwd_m), heads}, nullptr,
                                          o.data(), d_o.data(), delta.data(), s.N, opts);
      attn_bwd_dkdv<kC.dkdv_m, kC.dkdv_n, D, C, W, T>(
          tilec::Grid{blocks(s.N, kC.dkdv_n), kv_heads}, nullptr, q.data(), k.data(), v.data(),
          d_o.data(), m.data(), delta.data(), dk.data(), dv.data(), s.sm_scale, s.N, s.H, s.H_KV,
          s.window, opts);
      attn_bwd_dq<kC.dq_m, kC.dq_n, D, C, W, T>(tilec::Grid{blocks(s.N, kC.dq_m), heads}, nullptr,
                                                q.data(), k.data(), v.data(), d_o.data(), m.data(),
                                                delta.data(), dq.data(), s.sm_scale, s.N, s.H,
                                                s.H_KV, s.window, opts);
    }
  });
  sync_device();
  delta.copy_to(t.delta);
  dq.copy_to(t.dq);
  dk.copy_to(t.dk);
  dv.copy_to(t.dv);
}

template void forward_on_gpu<tl::half>(const Shape &, const Tensors<tl::half> &, const Config &);
template void forward_on_gpu<tl::bfloat16>(const Shape &, const Tensors<tl::bfloat16> &,
                                           const Config &);
template void backward_on_gpu<tl::half>(const Shape &, const Tensors<tl::half> &, const Config &);
template void backward_on_gpu<tl::bfloat16>(const Shape &, const Tensors<tl::bfloat16> &,
                                            const Config &);

} // namespace example
