// Chunked and whole-sequence cumulative sums along time, ported from flash-linear-attention
// (github.com/fla-org/flash-linear-attention, fla/ops/utils/cumsum.py at 033b0035:
// chunk_local_cumsum_scalar_kernel, chunk_local_cumsum_vector_kernel,
// chunk_global_cumsum_scalar_kernel, chunk_global_cumsum_vector_kernel; MIT licence).
//
// s is [B, T, H] (scalar kernels) or [B, T, H, S] (vector kernels), or head-first [B, H, T(, S)].
// The local kernels restart the sum at every chunk of BT steps (a program per chunk); the
// global ones walk the whole sequence in chunks, carrying the total so far. REVERSE sums from
// the end; HAS_SCALE multiplies the result by scale; IS_VARLEN takes the sequences' bounds
// from cu_seqlens (and, for the local kernels, each program's sequence and chunk from
// chunk_indices).
//
// Differences from the original: element types are template parameters; its `T` is `T_len`
// (and `T` the int64 length the kernels compute from it). The original picks its pointer
// tiles in the arms of `if HEAD_FIRST:`; a tile needs its value where it is declared in C++,
// so the two layouts' base offset and time step are constexpr choices (`base`, `step`, `row`).
// Where the original broadcasts a scalar as `b_z[None]` (a sum, a 0-d tensor in Triton), the
// scalar is added as it is; `cumsum(x, axis=0, reverse=REVERSE)` in one call, where the
// original branches on REVERSE. The global kernels' `if i_c >= 0:` (always true) is kept.
#include <tilec/tl.h>

template <class TS, class TO, int B, int H, int BT, bool REVERSE, bool HAS_SCALE, bool IS_VARLEN,
          bool HEAD_FIRST>
TILEC_KERNEL void chunk_local_cumsum_scalar_kernel(const TS *s, TO *o, float scale,
                                                   const int64_t *cu_seqlens,
                                                   const int64_t *chunk_indices, int T_len) {
  int64_t i_t = tl::program_id(0), i_bh = tl::program_id(1);
  int64_t i_b = i_bh / H, i_h = i_bh % H;
  int64_t bos, boh, T = T_len;
  if constexpr (IS_VARLEN) {
    int64_t i_n = tl::load(chunk_indices + i_t * 2);
    i_t = tl::load(chunk_indices + i_t * 2 + 1);
    bos = tl::load(cu_seqlens + i_n);
    int64_t eos = tl::load(cu_seqlens + i_n + 1);
    // heads of the packed sequence stride by the total length, not by the segment length
    boh = i_h * T + bos;
    T = eos - bos;
  } else {
    bos = i_b * T;
    boh = bos * H + i_h * T;
  }

  auto o_t = i_t * BT + tl::arange<0, BT>();
  auto m_t = o_t < T;
  int64_t base = HEAD_FIRST ? boh : bos * H + i_h;
  constexpr int step = HEAD_FIRST ? 1 : H;
  auto b_s = tl::cast<float>(tl::load(s + base + o_t * step, m_t, 0.0f));
  auto b_o = tl::cumsum<0>(b_s);
  if constexpr (REVERSE) {
    float b_z = tl::sum<0>(b_s);
    b_o = -b_o + b_z + b_s;
  }
  if constexpr (HAS_SCALE)
    b_o *= scale;
  tl::store(o + base + o_t * step, tl::cast<TO>(b_o), m_t);
}

template <class TS, class TO, int B, int H, int S, int BT, int BS, bool REVERSE, bool HAS_SCALE,
          bool IS_VARLEN, bool HEAD_FIRST>
TILEC_KERNEL void chunk_local_cumsum_vector_kernel(const TS *s, TO *o, float scale,
                                                   const int64_t *cu_seqlens,
                                                   const int64_t *chunk_indices, int T_len) {
  int i_s = tl::program_id(0);
  int64_t i_t = tl::program_id(1), i_bh = tl::program_id(2);
  int64_t i_b = i_bh / H, i_h = i_bh % H;
  int64_t bos, boh, T = T_len;
  if constexpr (IS_VARLEN) {
    int64_t i_n = tl::load(chunk_indices + i_t * 2);
    i_t = tl::load(chunk_indices + i_t * 2 + 1);
    bos = tl::load(cu_seqlens + i_n);
    int64_t eos = tl::load(cu_seqlens + i_n + 1);
    boh = i_h * T + bos;
    T = eos - bos;
  } else {
    bos = i_b * T;
    boh = bos * H + i_h * T;
  }

  auto o_t = i_t * BT + tl::arange<0, BT>();
  auto o_s = i_s * BS + tl::arange<0, BS>();
  auto m_s = (tl::expand_dims<1>(o_t) < T) & (tl::expand_dims<0>(o_s) < S);
  int64_t base = HEAD_FIRST ? boh * S : (bos * H + i_h) * S;
  constexpr int row = HEAD_FIRST ? S : H * S;
  auto offs = base + tl::expand_dims<1>(o_t) * row + tl::expand_dims<0>(o_s);
  auto b_s = tl::cast<float>(tl::load(s + offs, m_s, 0.0f));
  auto b_o = tl::cumsum<0, REVERSE>(b_s);
  if constexpr (HAS_SCALE)
    b_o *= scale;
  tl::store(o + offs, tl::cast<TO>(b_o), m_s);
}

template <class TS, class TO, int B, int H, int BT, bool REVERSE, bool HAS_SCALE, bool IS_VARLEN,
          bool HEAD_FIRST>
TILEC_KERNEL void chunk_global_cumsum_scalar_kernel(const TS *s, TO *o, float scale,
                                                    const int64_t *cu_seqlens, int T_len) {
  int64_t i_nh = tl::program_id(0);
  int64_t i_n = i_nh / H, i_h = i_nh % H;
  int64_t bos, eos, boh, T = T_len;
  if constexpr (IS_VARLEN) {
    bos = tl::load(cu_seqlens + i_n);
    eos = tl::load(cu_seqlens + i_n + 1);
    boh = i_h * T + bos;
  } else {
    bos = i_n * T;
    eos = i_n * T + T;
    boh = bos * H + i_h * T;
  }
  T = eos - bos;

  float b_z = 0.0f;
  int64_t NT = tl::cdiv(T, int64_t(BT));
  int64_t base = HEAD_FIRST ? boh : bos * H + i_h;
  constexpr int step = HEAD_FIRST ? 1 : H;
  for (int64_t i_c = 0; i_c < NT; i_c++) {
    int64_t i_t = REVERSE ? NT - 1 - i_c : i_c;
    auto o_t = i_t * BT + tl::arange<0, BT>();
    auto m_t = o_t < T;
    auto b_s = tl::cast<float>(tl::load(s + base + o_t * step, m_t, 0.0f));
    auto b_o = tl::cumsum<0>(b_s);
    float b_ss = tl::sum<0>(b_s);
    if constexpr (REVERSE)
      b_o = -b_o + b_ss + b_s;
    b_o += b_z;
    if (i_c >= 0)
      b_z += b_ss;
    if constexpr (HAS_SCALE)
      b_o *= scale;
    tl::store(o + base + o_t * step, tl::cast<TO>(b_o), m_t);
  }
}

template <class TS, class TO, int B, int H, int S, int BT, int BS, bool REVERSE, bool HAS_SCALE,
          bool IS_VARLEN, bool HEAD_FIRST>
TILEC_KERNEL void chunk_global_cumsum_vector_kernel(const TS *s, TO *o, float scale,
                                                    const int64_t *cu_seqlens, int T_len) {
  int i_s = tl::program_id(0);
  int64_t i_nh = tl::program_id(1);
  int64_t i_n = i_nh / H, i_h = i_nh % H;
  int64_t bos, eos, boh, T = T_len;
  if constexpr (IS_VARLEN) {
    bos = tl::load(cu_seqlens + i_n);
    eos = tl::load(cu_seqlens + i_n + 1);
    boh = i_h * T + bos;
  } else {
    bos = i_n * T;
    eos = i_n * T + T;
    boh = bos * H + i_h * T;
  }
  T = eos - bos;

  auto b_z = tl::zeros<float, BS>();
  int64_t NT = tl::cdiv(T, int64_t(BT));
  int64_t base = HEAD_FIRST ? boh * S : (bos * H + i_h) * S;
  constexpr int row = HEAD_FIRST ? S : H * S;
  for (int64_t i_c = 0; i_c < NT; i_c++) {
    int64_t i_t = REVERSE ? NT - 1 - i_c : i_c;
    auto o_t = i_t * BT + tl::arange<0, BT>();
    auto o_s = i_s * BS + tl::arange<0, BS>();
    auto m_s = (tl::expand_dims<1>(o_t) < T) & (tl::expand_dims<0>(o_s) < S);
    auto offs = base + tl::expand_dims<1>(o_t) * row + tl::expand_dims<0>(o_s);
    auto b_s = tl::cast<float>(tl::load(s + offs, m_s, 0.0f));
    auto b_c = tl::expand_dims<0>(b_z) + tl::cumsum<0, REVERSE>(b_s);
    if constexpr (HAS_SCALE)
      b_c *= scale;
    tl::store(o + offs, tl::cast<TO>(b_c), m_s);
    b_z += tl::sum<0>(b_s);
  }
}
