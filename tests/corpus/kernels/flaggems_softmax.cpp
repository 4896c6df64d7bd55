// Softmax forward and backward, ported from FlagGems (github.com/FlagOpen/FlagGems,
// src/flag_gems/ops/softmax.py at 532ff438: softmax_kernel_non_inner, softmax_kernel_inner,
// softmax_backward_kernel_non_inner, softmax_backward_kernel_inner; Apache License 2.0).
//
// The host views the input as [M, N, K] with the softmax taken along N. K == 1 ("inner"): one
// program per row; otherwise ("non-inner") a program per (m, TILE_K block of k). A row that
// fits one tile (ONE_TILE_PER_CTA, from FlagGems' heuristics: TILE_N >= N) is handled in
// registers; otherwise the forward kernels keep an online (running max, rescaled sum) pair
// per lane and sweep the row a second time, the inner one from the last tile backwards (its
// masked tile first, then the full ones unmasked). The backward kernels sum out * dout along
// N, then write out * (dout - sum).
//
// Differences from the original: the output and input element types are separate template
// parameters (the original's output_ptr.dtype.element_ty, for half_to_float); the heuristics
// (TILE_N, TILE_K, ONE_TILE_PER_CTA, num_warps) are the caller's template arguments, as
// FlagGems' @triton.heuristics compute them on the host. tle.program_id is program_id as
// int64, as in flag_gems.utils.triton_lang_extension. Where the original rebinds m and z from
// the [TILE_N(, TILE_K)] running tiles to their reductions (m = m_reduced), the reductions
// keep names of their own (m_reduced, z_reduced / z_sum, m_final): a C++ variable keeps its
// type. Two results differ from Triton's under tilec's promotion rule (a tile combined with a
// scalar keeps the tile's type, where Triton promotes a computed fp32 scalar): in
// softmax_kernel_inner, `inp - m` and `/ z` run in the input's type for half and bfloat16
// (Triton: float), and `pid_m * N + n_offsets` (an int64 scalar and an int32 tile) is an
// int32 tile (Triton: int64), as are the other offsets built from an int64 program id.
#include <tilec/tl.h>

// The last multiple of b below a (the start of the last, partial or full, tile).
TILEC_FUNC auto prev_multiple_of(auto a, auto b) { return tl::cdiv(a, b) * b - b; }

template <class TO, class TI, int TILE_N, int TILE_K, bool ONE_TILE_PER_CTA>
TILEC_KERNEL void softmax_kernel_non_inner(TO *output_ptr, const TI *input_ptr,
                                           [[maybe_unused]] int M, int N, int K) {
  int64_t pid_k = tl::program_id(1);
  int64_t pid_m = tl::program_id(0);

  auto k_offsets = pid_k * TILE_K + tl::arange<0, TILE_K>();

  if constexpr (ONE_TILE_PER_CTA) {
    auto n_offsets = tl::arange<0, TILE_N>();
    auto offset = pid_m * N * K + tl::expand_dims<1>(n_offsets) * K + k_offsets;
    auto mask = (tl::expand_dims<1>(n_offsets) < N) & (k_offsets < K);
    auto input_ptrs = input_ptr + offset;
    auto inp = tl::load(input_ptrs, mask, -INFINITY);
    auto m = tl::max<0>(inp);
    auto e = tl::exp(inp - tl::expand_dims<0>(m));
    auto z = tl::sum<0>(e);
    auto out = e / z;
    auto output_ptrs = output_ptr + offset;
    tl::store(output_ptrs, out, mask);
  } else {
    auto m = tl::full<float, TILE_N, TILE_K>(-INFINITY);
    auto z = tl::full<float, TILE_N, TILE_K>(0.0f);

    // first sweep: running max and rescaled sum per lane, every tile masked
    for (int start_n = 0; start_n < N; start_n += TILE_N) {
      auto n_offsets = start_n + tl::arange<0, TILE_N>();
      auto offsets = pid_m * N * K + tl::expand_dims<1>(n_offsets) * K + k_offsets;
      auto mask = (tl::expand_dims<1>(n_offsets) < N) & (k_offsets < K);
      auto inp = tl::load(input_ptr + offsets, mask, -INFINITY);
      auto m_new = tl::maximum(m, inp);
      auto all_neg_inf = m_new == -INFINITY;
      z = tl::where(all_neg_inf, z, z * tl::exp(m - m_new) + tl::exp(inp - m_new));
      m = m_new;
    }

    // merge the lanes of each column: [TILE_K] max and sum
    auto m_reduced = tl::max<0>(m);
    auto z_reduced = tl::sum<0>(z * tl::exp(m - tl::expand_dims<0>(m_reduced)));
    auto m_final = m_reduced;

    // second sweep, from the last tile back to the first
    auto previous_multiple = prev_multiple_of(N, TILE_N);
    for (int start_n = 0; start_n < N; start_n += TILE_N) {
      auto n_offsets = (previous_multiple - start_n) + tl::arange<0, TILE_N>();
      auto offsets = pid_m * N * K + tl::expand_dims<1>(n_offsets) * K + k_offsets;
      auto mask = (tl::expand_dims<1>(n_offsets) < N) & (tl::expand_dims<0>(k_offsets) < K);
      auto inp = tl::load(input_ptr + offsets, mask, -INFINITY);
      auto o = tl::exp(inp - tl::expand_dims<0>(m_final)) / tl::expand_dims<0>(z_reduced);
      tl::store(output_ptr + offsets, o, mask);
    }
  }
}

template <class TO, class TI, int TILE_N, bool ONE_TILE_PER_CTA>
TILEC_KERNEL void softmax_kernel_inner(TO *output_ptr, const TI *input_ptr, [[maybe_unused]] int M,
                                       int N) {
  int64_t pid_m = tl::program_id(0);
  if constexpr (ONE_TILE_PER_CTA) {
    auto n_offsets = tl::arange<0, TILE_N>();
    auto offset = pid_m * N + n_offsets;
    auto input_ptrs = input_ptr + offset;
    auto mask = n_offsets < N;
    auto inp = tl::cast<TO>(tl::load(input_ptrs, mask, -INFINITY));
    auto m = tl::max<0>(inp);
    auto e = tl::exp(inp - m);
    auto z = tl::sum<0>(e);
    auto out = e / z;
    auto output_ptrs = output_ptr + offset;
    tl::store(output_ptrs, out, mask);
  } else {
    auto m = tl::full<float, TILE_N>(-INFINITY);
    auto z = tl::full<float, TILE_N>(0.0f);
    input_ptr += pid_m * N;
    output_ptr += pid_m * N;

    auto previous_multiple = prev_multiple_of(N, TILE_N);
    for (int start_n = 0; start_n < previous_multiple; start_n += TILE_N) {
      auto n_offsets = start_n + tl::arange<0, TILE_N>();
      auto inp = tl::load(input_ptr + n_offsets);
      auto m_new = tl::maximum(m, inp);
      // lanes that have seen only -inf keep z (exp(-inf - -inf) would be NaN)
      auto all_neg_inf = m_new == -INFINITY;
      z = tl::where(all_neg_inf, z, z * tl::exp(m - m_new) + tl::exp(inp - m_new));
      m = m_new;
    }
    // the ragged last tile, masked
    for (int start_n = previous_multiple; start_n < N; start_n += TILE_N) {
      auto n_offsets = start_n + tl::arange<0, TILE_N>();
      auto mask = n_offsets < N;
      auto inp = tl::load(input_ptr + n_offsets, mask, -INFINITY);
      auto m_new = tl::maximum(m, inp);
      auto all_neg_inf = m_new == -INFINITY;
      z = tl::where(all_neg_inf, z, z * tl::exp(m - m_new) + tl::exp(inp - m_new));
      m = m_new;
    }

    float m_reduced = tl::max<0>(m);
    float z_sum = tl::sum<0>(z * tl::exp(m - m_reduced));
    float m_final = m_reduced;

    previous_multiple = prev_multiple_of(N, TILE_N);
    // second sweep backwards: the masked last tile first, then the full ones
    for (int start_n = 0; start_n < TILE_N; start_n += TILE_N) {
      auto n_offsets = (previous_multiple - start_n) + tl::arange<0, TILE_N>();
      auto mask = n_offsets < N;
      auto inp = tl::load(input_ptr + n_offsets, mask, -INFINITY, tl::evict_first);
      auto o = tl::exp(tl::cast<float>(inp) - m_final) / z_sum;
      tl::store(output_ptr + n_offsets, o, mask);
    }
    for (int start_n = TILE_N; start_n < N; start_n += TILE_N) {
      auto n_offsets = (previous_multiple - start_n) + tl::arange<0, TILE_N>();
      auto inp = tl::load(input_ptr + n_offsets, tl::evict_first);
      auto o = tl::exp(tl::cast<float>(inp) - m_final) / z_sum;
      tl::store(output_ptr + n_offsets, o);
    }
  }
}

template <class T, int TILE_N, int TILE_K, bool ONE_TILE_PER_CTA>
TILEC_KERNEL void softmax_backward_kernel_non_inner(const T *out_ptr, const T *out_grad_ptr,
                                                    T *in_grad_ptr, [[maybe_unused]] int M, int N,
                                                    int K) {
  int64_t pid_m = tl::program_id(0);
  int64_t pid_k = tl::program_id(1);
  auto offsets_k = pid_k * TILE_K + tl::arange<0, TILE_K>();

  if constexpr (ONE_TILE_PER_CTA) {
    auto offsets_n = tl::arange<0, TILE_N>();
    auto offsets = pid_m * N * K + tl::expand_dims<1>(offsets_n) * K + offsets_k;
    auto mask = tl::expand_dims<1>(offsets_n < N) & (offsets_k < K);
    auto out_tile = tl::cast<float>(tl::load(out_ptr + offsets, mask));
    auto out_grad_tile = tl::cast<float>(tl::load(out_grad_ptr + offsets, mask));
    auto scale = tl::sum<0>(out_tile * out_grad_tile);
    auto in_grad_tile = out_tile * (out_grad_tile - tl::expand_dims<0>(scale));
    tl::store(in_grad_ptr + offsets, in_grad_tile, mask);
  } else {
    auto offsets_n = tl::arange<0, TILE_N>();
    auto offsets = pid_m * N * K + tl::expand_dims<1>(offsets_n) * K + offsets_k;
    auto scale = tl::zeros<float, TILE_N, TILE_K>();
    for (int _ = 0; _ < N; _ += TILE_N) {
      auto mask = tl::expand_dims<1>(offsets_n < N) & (offsets_k < K);
      auto out_tile = tl::cast<float>(tl::load(out_ptr + offsets, mask));
      auto out_grad_tile = tl::cast<float>(tl::load(out_grad_ptr + offsets, mask));
      scale += out_tile * out_grad_tile;
      offsets_n += TILE_N;
      offsets += TILE_N * K;
    }
    auto scale_k = tl::sum<0>(scale); // one per column

    offsets_n = tl::arange<0, TILE_N>();
    offsets = pid_m * N * K + tl::expand_dims<1>(offsets_n) * K + offsets_k;
    for (int _ = 0; _ < N; _ += TILE_N) {
      auto mask = tl::expand_dims<1>(offsets_n < N) & (offsets_k < K);
      auto out_tile = tl::cast<float>(tl::load(out_ptr + offsets, mask));
      auto out_grad_tile = tl::cast<float>(tl::load(out_grad_ptr + offsets, mask));
      auto in_grad_tile = out_tile * (out_grad_tile - tl::expand_dims<0>(scale_k));
      tl::store(in_grad_ptr + offsets, in_grad_tile, mask);
      offsets_n += TILE_N;
      offsets += TILE_N * K;
    }
  }
}

template <class T, int TILE_M, int TILE_N, bool ONE_TILE_PER_CTA>
TILEC_KERNEL void softmax_backward_kernel_inner(const T *out_ptr, const T *out_grad_ptr,
                                                T *in_grad_ptr, int M, int N) {
  int64_t pid_m = tl::program_id(0);
  auto m_offsets = pid_m * TILE_M + tl::arange<0, TILE_M>();
  if constexpr (ONE_TILE_PER_CTA) {
    auto n_offsets = tl::arange<0, TILE_N>();
    auto offsets = tl::expand_dims<1>(m_offsets) * N + n_offsets;
    auto mask = (tl::expand_dims<1>(m_offsets) < M) & (n_offsets < N);
    auto out_tile = tl::cast<float>(tl::load(out_ptr + offsets, mask));
    auto out_grad_tile = tl::cast<float>(tl::load(out_grad_ptr + offsets, mask));
    auto scale = tl::sum<1>(out_tile * out_grad_tile);
    auto in_grad_tile = out_tile * (out_grad_tile - tl::expand_dims<1>(scale));
    tl::store(in_grad_ptr + offsets, in_grad_tile, mask);
  } else {
    auto scale = tl::zeros<float, TILE_M, TILE_N>();

    auto n_offsets = tl::arange<0, TILE_N>();
    auto offsets = tl::expand_dims<1>(m_offsets) * N + n_offsets;
    for (int _ = 0; _ < N; _ += TILE_N) {
      auto mask = (tl::expand_dims<1>(m_offsets) < M) & (n_offsets < N);
      auto out_tile = tl::cast<float>(tl::load(out_ptr + offsets, mask, 0, tl::evict_last));
      auto out_grad_tile = tl::cast<float>(tl::load(out_grad_ptr + offsets, mask));
      scale += out_tile * out_grad_tile;
      n_offsets += TILE_N;
      offsets += TILE_N;
    }
    auto scale_m = tl::sum<1>(scale); // one per row

    n_offsets = tl::arange<0, TILE_N>();
    offsets = tl::expand_dims<1>(m_offsets) * N + n_offsets;
    for (int _ = 0; _ < N; _ += TILE_N) {
      auto mask = (tl::expand_dims<1>(m_offsets) < M) & (n_offsets < N);
      auto out_tile = tl::cast<float>(tl::load(out_ptr + offsets, mask, 0, tl::evict_first));
      auto out_grad_tile = tl::cast<float>(tl::load(out_grad_ptr + offsets, mask));
      auto in_grad_tile = out_tile * (out_grad_tile - tl::expand_dims<1>(scale_m));
      tl::store(in_grad_ptr + offsets, in_grad_tile, mask);
      n_offsets += TILE_N;
      offsets += TILE_N;
    }
  }
}
