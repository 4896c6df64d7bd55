// Scans and arg reductions along each axis of rank-2 tiles. Each program takes the rows
// [pid * BM, pid * BM + BM) of an m x n matrix (n <= BN; x has row stride `stride`, the
// outputs are m x n) and scans or reduces that block.
#include <tilec/tl.h>

/// "f, then g" for affine maps x -> a * x + b (mod 2^16) packed as (a << 16) | b: associative
/// but not commutative, so a scan with it shows the order in which elements were combined.
TILEC_FUNC uint32_t compose(uint32_t f, uint32_t g) {
  uint32_t fa = f >> 16, fb = f & 0xffffu, ga = g >> 16, gb = g & 0xffffu;
  return (((ga * fa) & 0xffffu) << 16) | ((ga * fb + gb) & 0xffffu);
}

// Running sums along the rows and down the columns of the block (REV: from the last row up),
// running products of 1 + x up the columns, and the running sum of the block's first row
// loaded as a [1, BN] tile (first_row_sum is blocks x n).
template <int BM, int BN, bool REV>
TILEC_KERNEL void float_scans(const float *x, float *row_sum, float *col_sum, float *col_prod,
                              float *first_row_sum, int m, int n, int stride) {
  int pid = tl::program_id(0);
  auto rows = pid * BM + tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto in_bounds = (tl::expand_dims<1>(rows) < m) && (tl::expand_dims<0>(cols) < n);
  auto v =
      tl::load(x + tl::expand_dims<1>(rows) * stride + tl::expand_dims<0>(cols), in_bounds, 0.0f);
  auto out = tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols);
  tl::store(row_sum + out, tl::cumsum<1>(v), in_bounds);
  tl::store(col_sum + out, tl::cumsum<0, REV>(v), in_bounds);
  tl::store(col_prod + out, tl::cumprod<0, true>(1.0f + v), in_bounds);
  auto first_cols = tl::expand_dims<0>(cols);
  auto first = tl::load(x + pid * BM * stride + first_cols, first_cols < n, 0.0f);
  tl::store(first_row_sum + pid * n + first_cols, tl::cumsum<1>(first), first_cols < n);
}

// The same order-sensitive scan (compose) along the rows (forward and back) and up the
// columns of the block. Lanes outside the matrix hold the identity map (1, 0).
template <int BM, int BN>
TILEC_KERNEL void ordered_scans(const uint32_t *x, uint32_t *along_rows, uint32_t *back_rows,
                                uint32_t *up_columns, int m, int n) {
  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto in_bounds = (tl::expand_dims<1>(rows) < m) && (tl::expand_dims<0>(cols) < n);
  auto offs = tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols);
  auto v = tl::load(x + offs, in_bounds, 65536u);
  tl::store(along_rows + offs, tl::associative_scan<1>(v, compose), in_bounds);
  tl::store(back_rows + offs, tl::associative_scan<1, true>(v, compose), in_bounds);
  tl::store(up_columns + offs, tl::associative_scan<0, true>(v, compose), in_bounds);
}

// The argmax and argmin of each row (row_max, row_min: m entries) and of each column of the
// block (col_max, col_min: blocks x n; col_min through keep_dims). Lanes outside the matrix
// load NaN, which never wins.
template <class T, int BM, int BN>
TILEC_KERNEL void arg_reductions(const T *x, int *row_max, int *row_min, int *col_max, int *col_min,
                                 int m, int n) {
  int pid = tl::program_id(0);
  auto rows = pid * BM + tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto in_bounds = (tl::expand_dims<1>(rows) < m) && (tl::expand_dims<0>(cols) < n);
  auto v = tl::load(x + tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols), in_bounds, NAN);
  tl::store(row_max + rows, tl::argmax<1>(v), rows < m);
  tl::store(row_min + rows, tl::argmin<1>(v), rows < m);
  tl::store(col_max + pid * n + cols, tl::argmax<0>(v), cols < n);
  auto first_cols = tl::expand_dims<0>(cols);
  tl::store(col_min + pid * n + first_cols, tl::argmin<0, true>(v), first_cols < n);
}

// Each row's largest and smallest value with where they are: tl::max before tl::argmax and
// tl::argmin before tl::min, as kernels write them; the translator reduces each pair once
// (fuse-arg-reductions).
template <class T, int BM, int BN>
TILEC_KERNEL void row_extremes(const T *x, T *max_value, int *max_index, T *min_value,
                               int *min_index, int m, int n) {
  int pid = tl::program_id(0);
  auto rows = pid * BM + tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto in_bounds = (tl::expand_dims<1>(rows) < m) && (tl::expand_dims<0>(cols) < n);
  auto v = tl::load(x + tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols), in_bounds, NAN);
  auto largest = tl::max<1>(v);
  auto largest_at = tl::argmax<1>(v);
  auto smallest_at = tl::argmin<1>(v);
  auto smallest = tl::min<1>(v);
  tl::store(max_value + rows, largest, rows < m);
  tl::store(max_index + rows, largest_at, rows < m);
  tl::store(min_value + rows, smallest, rows < m);
  tl::store(min_index + rows, smallest_at, rows < m);
}

// The same for a half tile, whose tl::max is a float tile: the winners' values are converted.
template <int BM, int BN>
TILEC_KERNEL void half_row_max(const tl::half *x, float *max_value, int *max_index, int m, int n) {
  int pid = tl::program_id(0);
  auto rows = pid * BM + tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto in_bounds = (tl::expand_dims<1>(rows) < m) && (tl::expand_dims<0>(cols) < n);
  auto v = tl::load(x + tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols), in_bounds, NAN);
  tl::store(max_value + rows, tl::max<1>(v), rows < m);
  tl::store(max_index + rows, tl::argmax<1>(v), rows < m);
}
