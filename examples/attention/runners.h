// runners.h - the two ways this example runs the attention kernels: the GPU launchers
// (run_gpu.cpp) and the host interpreter (run_interpreter.cpp). They live in separate files
// because the launcher header and the kernel source both declare the kernels.
#pragma once

#include <tilec/types.h>

#include <cstddef>
#include <stdexcept>
#include <type_traits>

namespace example {

/// One problem: Q [Z, H, N, D], K and V [Z, H_KV, N, D]; `window` 0 means no sliding window.
struct Shape {
  int Z, H, H_KV, N, D;
  bool causal;
  int window;
  float sm_scale;
  size_t q_elems() const { return size_t(Z) * H * N * D; }
  size_t kv_elems() const { return size_t(Z) * H_KV * N * D; }
  size_t rows() const { return size_t(Z) * H * N; }
};

/// Host arrays of one problem. Inputs: q, k, v (forward), and o, m, d_o (backward). Outputs:
/// o and m (forward); delta, dq, dk, dv (backward). The runners fill every output with 0xFF
/// bytes (NaN) before the kernels run, so elements the kernels miss stay NaN.
template <class T> struct Tensors {
  const T *q, *k, *v, *d_o;
  T *o, *dq, *dk, *dv;
  float *m, *delta;
};

/// Blocks and launch options of the three kernels that take blocks (the preprocess kernel
/// uses the forward's BLOCK_M).
struct Config {
  int fwd_m, fwd_n, dkdv_m, dkdv_n, dq_m, dq_n, num_warps, num_stages;
  bool operator==(const Config &) const = default;
};

/// What the GPU runs by default: each kernel's TILEC_AUTOTUNE choice.
constexpr Config kAutotuned{0, 0, 0, 0, 0, 0, 0, 0};
/// Small blocks, so that the interpreter's small problems span several blocks in both
/// directions and reach the diagonal and edge cases (the GPU runners take it too).
constexpr Config kSmallConfig{32, 16, 16, 32, 32, 16, 4, 2};
inline constexpr const char *kBadConfig =
    "attention: the runners take kAutotuned (GPU) and kSmallConfig only";
inline constexpr const char *kBadShape = "attention: HEAD_DIM must be 64 or 128";
/// Rows per program of the preprocess kernel under kAutotuned.
constexpr int kPreprocessBlock = 64;

template <class T> void forward_on_gpu(const Shape &s, const Tensors<T> &t, const Config &c);
template <class T> void backward_on_gpu(const Shape &s, const Tensors<T> &t, const Config &c);
template <class T>
void forward_in_interpreter(const Shape &s, const Tensors<T> &t, const Config &c);
template <class T>
void backward_in_interpreter(const Shape &s, const Tensors<T> &t, const Config &c);

/// Calls f(std::integral_constant<int, D>, std::bool_constant<CAUSAL>,
/// std::bool_constant<WINDOW>) for the shape's head dim and masks.
template <class F> void with_variant(const Shape &s, F &&f) {
  auto masks = [&](auto d) {
    if (s.causal) {
      if (s.window > 0)
        f(d, std::true_type{}, std::true_type{});
      else
        f(d, std::true_type{}, std::false_type{});
    } else {
      if (s.window > 0)
        f(d, std::false_type{}, std::true_type{});
      else
        f(d, std::false_type{}, std::false_type{});
    }
  };
  if (s.D == 64)
    masks(std::integral_constant<int, 64>{});
  else if (s.D == 128)
    masks(std::integral_constant<int, 128>{});
  else
    throw std::invalid_argument(kBadShape);
}

} // namespace example
