// Rotary position embedding, forward and backward in one kernel, ported from Liger-Kernel
// (github.com/linkedin/Liger-Kernel, src/liger_kernel/ops/rope.py: _triton_rope; BSD 2-Clause
// licence). One program per token rotates every q and k head in place: q is
// [bsz, seq_len, n_qh, hd], k [bsz, seq_len, n_kh, hd], cos and sin [cos_bs, seq_len, hd]
// (only their left halves are read). Heads and the half head dimension are padded to powers
// of two (pad_n_qh, pad_n_kh, pad_hd) and masked.
#include <tilec/tl.h>

template <class T, int bs, int cos_bs, int n_qh, int n_kh, int hd, int pad_n_qh, int pad_n_kh,
          int pad_hd, int BLOCK_SIZE, bool BACKWARD_PASS>
TILEC_KERNEL void triton_rope(T *q_ptr, int q_row_stride, T *k_ptr, int k_row_stride,
                              const T *cos, int cos_row_stride, const T *sin, int sin_row_stride,
                              int sl) {
  int64_t pid = tl::program_id(0);

  // locate start address
  q_ptr = q_ptr + pid * q_row_stride;
  k_ptr = k_ptr + pid * k_row_stride;

  // Programs run over [bsz, seq_len] with the sequence fastest: pid / sl is the batch,
  // pid % sl the position. Only the left half of cos and sin is needed.
  int64_t batch_idx = pid / sl;
  int64_t cos_row_idx = pid % sl;
  cos = cos + tl::where(cos_bs == 1, cos_row_idx * cos_row_stride,
                        batch_idx * (sl * cos_row_stride) + cos_row_idx * cos_row_stride);
  sin = sin + tl::where(cos_bs == 1, cos_row_idx * sin_row_stride,
                        batch_idx * (sl * sin_row_stride) + cos_row_idx * sin_row_stride);

  auto cos_offsets = tl::arange<0, pad_hd / 2>();
  auto cos_mask = cos_offsets < hd / 2;
  auto cos_row = tl::load(cos + cos_offsets, cos_mask, 0);
  auto sin_row = tl::load(sin + cos_offsets, cos_mask, 0);

  // left half of the head
  auto first_half_q_offsets = tl::expand_dims<1>(tl::arange<0, pad_n_qh>()) * hd +
                              tl::expand_dims<0>(tl::arange<0, pad_hd / 2>());
  auto first_half_k_offsets = tl::expand_dims<1>(tl::arange<0, pad_n_kh>()) * hd +
                              tl::expand_dims<0>(tl::arange<0, pad_hd / 2>());
  auto first_q_mask = (tl::expand_dims<1>(tl::arange<0, pad_n_qh>()) < n_qh) &
                      (tl::expand_dims<0>(tl::arange<0, pad_hd / 2>()) < hd / 2);
  auto first_k_mask = (tl::expand_dims<1>(tl::arange<0, pad_n_kh>()) < n_kh) &
                      (tl::expand_dims<0>(tl::arange<0, pad_hd / 2>()) < hd / 2);
  auto q_tile_1 = tl::load(q_ptr + first_half_q_offsets, first_q_mask, 0);
  auto k_tile_1 = tl::load(k_ptr + first_half_k_offsets, first_k_mask, 0);

  // right half of the head
  auto second_half_q_offsets = first_half_q_offsets + (hd / 2);
  auto second_half_k_offsets = first_half_k_offsets + (hd / 2);
  auto second_q_mask = first_q_mask;
  auto second_k_mask = first_k_mask;
  auto q_tile_2 = tl::load(q_ptr + second_half_q_offsets, second_q_mask, 0);
  auto k_tile_2 = tl::load(k_ptr + second_half_k_offsets, second_k_mask, 0);

  if constexpr (!BACKWARD_PASS) {
    // y = [x1, x2] * [cos, cos] + [-x2, x1] * [sin, sin]
    auto new_q_tile_1 = q_tile_1 * cos_row - q_tile_2 * sin_row;
    tl::store(q_ptr + first_half_q_offsets, new_q_tile_1, first_q_mask);
    auto new_q_tile_2 = q_tile_2 * cos_row + q_tile_1 * sin_row;
    tl::store(q_ptr + second_half_q_offsets, new_q_tile_2, second_q_mask);

    auto new_k_tile_1 = k_tile_1 * cos_row - k_tile_2 * sin_row;
    tl::store(k_ptr + first_half_k_offsets, new_k_tile_1, first_k_mask);
    auto new_k_tile_2 = k_tile_2 * cos_row + k_tile_1 * sin_row;
    tl::store(k_ptr + second_half_k_offsets, new_k_tile_2, second_k_mask);
  } else {
    // dy = [dx1, dx2] * [cos, cos] + [-dx2, dx1] * [-sin, -sin]
    auto new_q_tile_1 = q_tile_1 * cos_row + q_tile_2 * sin_row;
    tl::store(q_ptr + first_half_q_offsets, new_q_tile_1, first_q_mask);
    auto new_q_tile_2 = q_tile_2 * cos_row - q_tile_1 * sin_row;
    tl::store(q_ptr + second_half_q_offsets, new_q_tile_2, second_q_mask);

    auto new_k_tile_1 = k_tile_1 * cos_row + k_tile_2 * sin_row;
    tl::store(k_ptr + first_half_k_offsets, new_k_tile_1, first_k_mask);
    auto new_k_tile_2 = k_tile_2 * cos_row - k_tile_1 * sin_row;
    tl::store(k_ptr + second_half_k_offsets, new_k_tile_2, second_k_mask);
  }
}
