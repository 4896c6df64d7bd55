// Rank-2 tiles: 2-D pointer arithmetic with expand_dims, masks that broadcast, reductions
// along each axis, and a reduced row broadcast back into the tile.
#include <tilec/tl.h>

// For rows [pid * BM, pid * BM + BM): row_sum[r] = sum_c x[r][c] and, per block of rows,
// col_max[pid][c] = max_r (x[r][c] - row_sum[r]).
template <int BM, int BN>
TILEC_KERNEL void row_sums_col_max(const float *x, float *row_sum, float *col_max, int m, int n,
                                   int stride) {
  int pid = tl::program_id(0);
  auto rows = pid * BM + tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rows) < m) && (tl::expand_dims<0>(cols) < n);
  auto v = tl::load(x + tl::expand_dims<1>(rows) * stride + tl::expand_dims<0>(cols), mask, 0.0f);
  auto s = tl::sum<1>(v);
  tl::store(row_sum + rows, s, rows < m);
  auto shifted = tl::where(mask, v - tl::expand_dims<1>(s), -INFINITY);
  tl::store(col_max + pid * n + cols, tl::max<0>(shifted), cols < n);
}

// One arange as both rows and columns (a layout conversion), and a slice reduced to a
// scalar: out[r][c] = r * 1000 + c, total = sum of all of them.
template <int B> TILEC_KERNEL void grid_index(int *out, float *total) {
  auto r = tl::arange<0, B>();
  auto t = tl::expand_dims<1>(r) * 1000 + tl::expand_dims<0>(r);
  tl::store(out + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r), t);
  tl::store(total, tl::sum(tl::sum<1>(tl::cast<float>(t))));
}

// Transpose a [BM, BN] block of an m x n matrix (out is n x m), and reshape a row of BM * BN
// elements into the block's shape and back.
template <int BM, int BN>
TILEC_KERNEL void transpose_block(const float *x, float *out, float *flat, int m, int n) {
  int pr = tl::program_id(0), pc = tl::program_id(1);
  auto rows = pr * BM + tl::arange<0, BM>();
  auto cols = pc * BN + tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rows) < m) && (tl::expand_dims<0>(cols) < n);
  auto v = tl::load(x + tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols), mask, 0.0f);
  auto t = tl::trans(v);
  auto tmask = (tl::expand_dims<1>(cols) < n) && (tl::expand_dims<0>(rows) < m);
  tl::store(out + tl::expand_dims<1>(cols) * m + tl::expand_dims<0>(rows), t, tmask);
  // Round trip through a rank-1 tile: flat[block][k] = v in row-major order.
  auto lin = tl::reshape<BM * BN>(v);
  int block = pr * tl::num_programs(1) + pc;
  tl::store(flat + block * (BM * BN) + tl::arange<0, BM * BN>(), lin);
}
