// Weight normalization forward, ported from FlagGems (github.com/FlagOpen/FlagGems,
// src/flag_gems/ops/weightnorm.py at 532ff438: weight_norm_kernel_last,
// weight_norm_kernel_first; Apache License 2.0).
//
// w = g * v / ||v||, the norm taken over every dimension but one of v, viewed as [M, N]:
// weight_norm_kernel_first keeps dim 0 (a norm per row, BLOCK_ROW_SIZE rows per program,
// the row swept in BLOCK_COL_SIZE steps), weight_norm_kernel_last keeps the last dim (a
// norm per column, BLOCK_COL_SIZE columns per program held as the tile's first axis, the
// column swept in BLOCK_ROW_SIZE steps). Both store the norm (sqrt(sum v^2 + eps)) and then
// sweep v a second time to write g * v / norm.
//
// Left out: the backward kernels, which raise the norm's reciprocal to the third power with
// libdevice's pow (tl_extra_shim.pow), absent from tilec's vocabulary; and
// fused/weight_norm.py's weight_norm_except_dim kernels (a middle dimension kept). eps is a
// float argument (the host passes torch.finfo(torch.float32).tiny).
// Under tilec's promotion rule (a tile combined with a scalar keeps the tile's type) the
// offsets `program_id (int64) * BLOCK + arange` are an int32 tile, where Triton's are int64.
#include <tilec/tl.h>

template <class T, int BLOCK_ROW_SIZE, int BLOCK_COL_SIZE>
TILEC_KERNEL void weight_norm_kernel_last(T *output, T *norm, const T *v, const T *g, int M, int N,
                                          float eps) {
  auto tx = tl::expand_dims<1>(tl::arange<0, BLOCK_COL_SIZE>());
  int64_t bx = int64_t(tl::program_id(0)) * BLOCK_COL_SIZE;
  auto col_offset = bx + tx;
  auto col_mask = col_offset < N;

  auto ty = tl::expand_dims<0>(tl::arange<0, BLOCK_ROW_SIZE>());
  auto v_block = tl::zeros<float, BLOCK_COL_SIZE, BLOCK_ROW_SIZE>();
  for (int base = 0; base < M; base += BLOCK_ROW_SIZE) {
    auto row_offset = base + ty;
    auto mask = row_offset < M && col_mask;
    auto v_value = tl::cast<float>(tl::load(v + row_offset * N + col_offset, mask));
    v_block += v_value * v_value;
  }

  auto normalized = tl::sqrt(tl::sum<1>(v_block) + eps);
  tl::store(norm + col_offset, tl::expand_dims<1>(normalized), col_mask);
  auto g_value = tl::cast<float>(tl::load(g + col_offset, col_mask));

  for (int base = 0; base < M; base += BLOCK_ROW_SIZE) {
    auto row_offset = base + ty;
    auto mask = row_offset < M && col_mask;
    auto v_value = tl::cast<float>(tl::load(v + row_offset * N + col_offset, mask));
    auto v_vec = v_value / tl::expand_dims<1>(normalized);
    auto out = v_vec * g_value;
    tl::store(output + row_offset * N + col_offset, out, mask);
  }
}

template <class T, int BLOCK_ROW_SIZE, int BLOCK_COL_SIZE>
TILEC_KERNEL void weight_norm_kernel_first(T *output, T *norm, const T *v, const T *g, int M, int N,
                                           float eps) {
  auto ty = tl::expand_dims<1>(tl::arange<0, BLOCK_ROW_SIZE>());
  int64_t by = int64_t(tl::program_id(0)) * BLOCK_ROW_SIZE;
  auto row_offset = by + ty;
  auto row_mask = row_offset < M;

  auto tx = tl::expand_dims<0>(tl::arange<0, BLOCK_COL_SIZE>());
  auto v_block = tl::zeros<float, BLOCK_ROW_SIZE, BLOCK_COL_SIZE>();
  for (int base = 0; base < N; base += BLOCK_COL_SIZE) {
    auto col_offset = base + tx;
    auto mask = col_offset < N && row_mask;
    auto v_value = tl::cast<float>(tl::load(v + row_offset * N + col_offset, mask));
    v_block += v_value * v_value;
  }

  auto normalized = tl::sqrt(tl::sum<1>(v_block) + eps);
  tl::store(norm + row_offset, tl::expand_dims<1>(normalized), row_mask);
  auto g_value = tl::cast<float>(tl::load(g + row_offset, row_mask));

  for (int base = 0; base < N; base += BLOCK_COL_SIZE) {
    auto col_offset = base + tx;
    auto mask = col_offset < N && row_mask;
    auto v_value = tl::cast<float>(tl::load(v + row_offset * N + col_offset, mask));
    auto v_vec = v_value / tl::expand_dims<1>(normalized);
    auto out = v_vec * g_value;
    tl::store(output + row_offset * N + col_offset, out, mask);
  }
}
