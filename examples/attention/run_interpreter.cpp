// run_interpreter.cpp - the same kernel source compiled for the host and run by the
// interpreter, one program instance at a time, on host pointers. Only kSmallConfig: the
// interpreter's problems are small.
#include "runners.h"

#include <tilec/interpret.h>

#include "fused_attention.cpp"

#include "host_check.h"

#include <stdexcept>

namespace example {
namespace {

constexpr Config kC = kSmallConfig;

void require_small(const Config &c) {
  if (!(c == kSmallConfig))
    throw std::invalid_argument(kBadConfig);
}

uint32_t blocks(int n, int block) { return uint32_t(tilec::cdiv(n, block)); }

} // namespace

template <class T>
void forward_in_interpreter(const Shape &s, const Tensors<T> &t, const Config &c) {
  require_small(c);
  poison_host(t.o, s.q_elems() * sizeof(T));
  poison_host(t.m, s.rows() * sizeof(float));
  with_variant(s, [&](auto d, auto causal, auto window) {
    constexpr int D = decltype(d)::value;
    tilec::interpret::launch(
        attn_fwd<kC.fwd_m, kC.fwd_n, D, decltype(causal)::value, decltype(window)::value, T>,
        tilec::Grid{blocks(s.N, kC.fwd_m), uint32_t(s.Z * s.H)}, t.q, t.k, t.v, t.o, t.m,
        s.sm_scale, s.N, s.H, s.H_KV, s.window);
  });
}

template <class T>
void backward_in_interpreter(const Shape &s, const Tensors<T> &t, const Config &c) {
  require_small(c);
  poison_host(t.delta, s.rows() * sizeof(float));
  poison_host(t.dq, s.q_elems() * sizeof(T));
  poison_host(t.dk, s.kv_elems() * sizeof(T));
  poison_host(t.dv, s.kv_elems() * sizeof(T));
  with_variant(s, [&](auto d, auto causal, auto window) {
    constexpr int D = decltype(d)::value;
    constexpr bool C = decltype(causal)::value, W = decltype(window)::value;
    tilec::interpret::launch(attn_bwd_preprocess<kC.fwd_m, D, T>,
                             tilec::Grid{blocks(s.N, kC.fwd_m), uint32_t(s.Z * s.H)}, t.o, t.d_o,
                             t.delta, s.N);
    tilec::interpret::launch(attn_bwd_dkdv<kC.dkdv_m, kC.dkdv_n, D, C, W, T>,
                             tilec::Grid{blocks(s.N, kC.dkdv_n), uint32_t(s.Z * s.H_KV)}, t.q, t.k,
                             t.v, t.d_o, t.m, t.delta, t.dk, t.dv, s.sm_scale, s.N, s.H, s.H_KV,
                             s.window);
    tilec::interpret::launch(attn_bwd_dq<kC.dq_m, kC.dq_n, D, C, W, T>,
                             tilec::Grid{blocks(s.N, kC.dq_m), uint32_t(s.Z * s.H)}, t.q, t.k, t.v,
                             t.d_o, t.m, t.delta, t.dq, s.sm_scale, s.N, s.H, s.H_KV, s.window);
  });
}

template void forward_in_interpreter<tl::half>(const Shape &, const Tensors<tl::half> &,
                                               const Config &);
template void forward_in_interpreter<tl::bfloat16>(const Shape &, const Tensors<tl::bfloat16> &,
                                                   const Config &);
template void backward_in_interpreter<tl::half>(const Shape &, const Tensors<tl::half> &,
                                                const Config &);
template void backward_in_interpreter<tl::bfloat16>(const Shape &, const Tensors<tl::bfloat16> &,
                                                    const Config &);

} // namespace example
