// Qwen2-VL's multimodal rotary embedding (M-RoPE), forward and backward in place, ported from
// Liger-Kernel (github.com/linkedin/Liger-Kernel, src/liger_kernel/ops/qwen2vl_mrope.py at
// 208d5362: _triton_qwen2vl_mrope; BSD 2-Clause licence).
//
// A program per token rotates all its query and key heads: the left half of each head's
// dimensions by [cos, -sin], the right half by [sin, cos] (the backward by the transpose). The
// cos and sin rows come from three position streams (temporal, height, width: cos and sin are
// [3, bs, sl, hd]), picked by dimension: the first mrope_section_t from the temporal one, the
// next mrope_section_h from the height one, the rest of hd / 2 from the width one.
//
// Differences from the original: element types are template parameters (TQ for q and k, TC
// for cos and sin; the original casts q and k to sin's type, `.to(sin_row.dtype)`, and stores
// the result into q's type implicitly, which is explicit here).
#include <tilec/tl.h>

template <class TQ, class TC, int bs, int n_qh, int n_kh, int hd, int pad_n_qh, int pad_n_kh,
          int pad_hd, int mrope_section_t, int mrope_section_h, int BLOCK_SIZE,
          bool BACKWARD_PASS = false>
TILEC_KERNEL void _triton_qwen2vl_mrope(TQ *q_ptr, TQ *k_ptr, const TC *cos, const TC *sin,
                                        int sl) {
  int pid = tl::program_id(0);

  // locate start address
  q_ptr = q_ptr + pid * (n_qh * hd);
  k_ptr = k_ptr + pid * (n_kh * hd);

  constexpr int t_end = mrope_section_t;
  constexpr int h_end = t_end + mrope_section_h;

  const TC *t_cos = cos + pid * hd;
  const TC *h_cos = t_cos + bs * sl * hd;
  const TC *w_cos = h_cos + bs * sl * hd;
  const TC *t_sin = sin + pid * hd;
  const TC *h_sin = t_sin + bs * sl * hd;
  const TC *w_sin = h_sin + bs * sl * hd;

  auto cos_offsets = tl::arange<0, pad_hd / 2>();
  auto t_mask = cos_offsets < t_end;
  auto h_mask = (t_end <= cos_offsets) & (cos_offsets < h_end);
  auto w_mask = (h_end <= cos_offsets) & (cos_offsets < hd / 2);
  auto t_cos_row = tl::load(t_cos + cos_offsets, t_mask, 0);
  auto h_cos_row = tl::load(h_cos + cos_offsets, h_mask, 0);
  auto w_cos_row = tl::load(w_cos + cos_offsets, w_mask, 0);
  auto t_sin_row = tl::load(t_sin + cos_offsets, t_mask, 0);
  auto h_sin_row = tl::load(h_sin + cos_offsets, h_mask, 0);
  auto w_sin_row = tl::load(w_sin + cos_offsets, w_mask, 0);
  auto cos_row = t_cos_row + h_cos_row + w_cos_row;
  auto sin_row = t_sin_row + h_sin_row + w_sin_row;

  // left half of the head
  auto first_half_q_offsets = tl::expand_dims<1>(tl::arange<0, pad_n_qh>()) * hd +
                              tl::expand_dims<0>(tl::arange<0, pad_hd / 2>());
  auto first_half_k_offsets = tl::expand_dims<1>(tl::arange<0, pad_n_kh>()) * hd +
                              tl::expand_dims<0>(tl::arange<0, pad_hd / 2>());
  auto first_q_mask = (tl::expand_dims<1>(tl::arange<0, pad_n_qh>()) < n_qh) &
                      (tl::expand_dims<0>(tl::arange<0, pad_hd / 2>()) < hd / 2);
  auto first_k_mask = (tl::expand_dims<1>(tl::arange<0, pad_n_kh>()) < n_kh) &
                      (tl::expand_dims<0>(tl::arange<0, pad_hd / 2>()) < hd / 2);
  auto q_tile_1 = tl::cast<TC>(tl::load(q_ptr + first_half_q_offsets, first_q_mask, 0));
  auto k_tile_1 = tl::cast<TC>(tl::load(k_ptr + first_half_k_offsets, first_k_mask, 0));

  // right half of the head
  auto second_half_q_offsets = first_half_q_offsets + (hd / 2);
  auto second_half_k_offsets = first_half_k_offsets + (hd / 2);
  auto second_q_mask = first_q_mask;
  auto second_k_mask = first_k_mask;
  auto q_tile_2 = tl::cast<TC>(tl::load(q_ptr + second_half_q_offsets, second_q_mask, 0));
  auto k_tile_2 = tl::cast<TC>(tl::load(k_ptr + second_half_k_offsets, second_k_mask, 0));

  if constexpr (!BACKWARD_PASS) {
    // y = [x1, x2] * [cos, cos] + [-x2, x1] * [sin, sin]
    auto new_q_tile_1 = q_tile_1 * cos_row - q_tile_2 * sin_row;
    tl::store(q_ptr + first_half_q_offsets, tl::cast<TQ>(new_q_tile_1), first_q_mask);
    auto new_q_tile_2 = q_tile_2 * cos_row + q_tile_1 * sin_row;
    tl::store(q_ptr + second_half_q_offsets, tl::cast<TQ>(new_q_tile_2), second_q_mask);

    auto new_k_tile_1 = k_tile_1 * cos_row - k_tile_2 * sin_row;
    tl::store(k_ptr + first_half_k_offsets, tl::cast<TQ>(new_k_tile_1), first_k_mask);
    auto new_k_tile_2 = k_tile_2 * cos_row + k_tile_1 * sin_row;
    tl::store(k_ptr + second_half_k_offsets, tl::cast<TQ>(new_k_tile_2), second_k_mask);
  } else {
    // dy = [dx1, dx2] * [cos, cos] + [-dx2, dx1] * [-sin, -sin]
    auto new_q_tile_1 = q_tile_1 * cos_row + q_tile_2 * sin_row;
    tl::store(q_ptr + first_half_q_offsets, tl::cast<TQ>(new_q_tile_1), first_q_mask);
    auto new_q_tile_2 = q_tile_2 * cos_row - q_tile_1 * sin_row;
    tl::store(q_ptr + second_half_q_offsets, tl::cast<TQ>(new_q_tile_2), second_q_mask);

    auto new_k_tile_1 = k_tile_1 * cos_row + k_tile_2 * sin_row;
    tl::store(k_ptr + first_half_k_offsets, tl::cast<TQ>(new_k_tile_1), first_k_mask);
    auto new_k_tile_2 = k_tile_2 * cos_row - k_tile_1 * sin_row;
    tl::store(k_ptr + second_half_k_offsets, tl::cast<TQ>(new_k_tile_2), second_k_mask);
  }
}
