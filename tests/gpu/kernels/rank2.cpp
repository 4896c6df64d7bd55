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

// Reductions of every element of a [BM, BN] block (m x n of it loaded, the rest 0 or -inf):
// out = {sum, max |v|}, iout = {xor of bits, or of bits (a custom combine), argmax and argmin
// as flat indices into the block}, shifted = v - min(v) (keep_dims, broadcast back).
TILEC_FUNC int bitwise_or(int a, int b) { return a | b; }

template <int BM, int BN>
TILEC_KERNEL void whole_block(const float *x, const int *bits, float *out, int *iout,
                              float *shifted, int m, int n) {
  auto rows = tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto offs = tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols);
  auto mask = (tl::expand_dims<1>(rows) < m) & (tl::expand_dims<0>(cols) < n);
  auto v = tl::load(x + offs, mask, 0.0f);
  auto lowest = tl::load(x + offs, mask, -INFINITY);
  auto b = tl::load(bits + offs, mask, 0);
  tl::store(out, tl::sum(v));
  tl::store(out + 1, tl::max<tl::all_axes>(tl::abs(v)));
  tl::store(iout, tl::xor_sum(b));
  tl::store(iout + 1, tl::reduce(b, bitwise_or));
  tl::store(iout + 2, tl::argmax(lowest));
  tl::store(iout + 3, tl::argmin(v));
  auto block = tl::expand_dims<1>(rows) * BN + tl::expand_dims<0>(cols);
  tl::store(shifted + block, v - tl::min<tl::all_axes, true>(v));
}
