// Reductions of every element of a rank-2 tile (no axis, or tl::all_axes): by value (sum,
// max, min, xor_sum, a custom combine) they reduce the rows, then the rows' results, in
// registers (no reshape through shared memory); argmax / argmin flatten the tile in row-major
// order first, so that they give the flat index; keep_dims gives a [1, 1] tile.
#include <tilec/tl.h>

TILEC_FUNC int bit_or(int a, int b) { return a | b; }

template <int BM, int BN>
TILEC_KERNEL void whole(const float *x, const int *bits, float *out, int *iout, int m, int n) {
  auto rows = tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto offs = tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols);
  auto mask = (tl::expand_dims<1>(rows) < m) & (tl::expand_dims<0>(cols) < n);
  auto v = tl::load(x + offs, mask, 0.0f);
  auto b = tl::load(bits + offs, mask, 0);
  tl::store(out, tl::sum(v));
  tl::store(out + 1, tl::max<tl::all_axes>(tl::abs(v)));
  tl::store(iout, tl::xor_sum(b));
  tl::store(iout + 1, tl::reduce(b, bit_or));
  tl::store(iout + 2, tl::argmax(v));
  auto first_min = tl::cast<float>(tl::argmin<tl::all_axes, true>(v)); // [1, 1]
  tl::store(out + 8 + offs, v - tl::min<tl::all_axes, true>(v) + first_min, mask);
}

// IR:      [[ROWS:%[0-9]+]] = reduce "sum" %{{[0-9]+}}:v [1] : tile<float, BM>
// IR-NEXT: = reduce "sum" [[ROWS]] [0] : float
// IR:      [[MROWS:%[0-9]+]] = reduce "max" %{{[0-9]+}} [1] : tile<float, BM>
// IR-NEXT: = reduce "max" [[MROWS]] [0] : float
// IR:      [[XROWS:%[0-9]+]] = reduce "xor_sum" %{{[0-9]+}}:b [1] : tile<int, BM>
// IR-NEXT: = reduce "xor_sum" [[XROWS]] [0] : int
// IR:      = reduce "reduce" %{{[0-9]+}}:b [1] : tile<int, BM>
// IR:      = reduce "reduce" %{{[0-9]+}} [0] : int
// IR:      = reshape %{{[0-9]+}}:v : tile<float, BM * BN>
// IR-NEXT: = reduce "argmax" %{{[0-9]+}} [0] : int
// IR:      = reshape %{{[0-9]+}}:v : tile<float, BM * BN>
// IR-NEXT: [[AM:%[0-9]+]] = reduce "argmin" %{{[0-9]+}} [0] : int
// IR-NEXT: = splat [[AM]] : tile<int, 1, 1>
// IR:      [[NROWS:%[0-9]+]] = reduce "min" %{{[0-9]+}}:v [1] : tile<float, BM>
// IR-NEXT: [[N:%[0-9]+]] = reduce "min" [[NROWS]] [0] : float
// IR-NEXT: = splat [[N]] : tile<float, 1, 1>

// CU:      tilec::reduce_axis<L0, 1>(v, {{t[0-9]+}}, tilec::SumOp{}, tid, smem);
// CU:      tilec::reduce_tile<{{L[0-9]+}}>({{t[0-9]+}}, tilec::SumOp{}, tid, smem);
// CU:      tilec::reduce_axis<L0, 1>({{t[0-9]+}}, {{t[0-9]+}}, tilec::MaxOp{}, tid, smem);
// CU:      tilec::reduce_tile<{{L[0-9]+}}>({{t[0-9]+}}, tilec::MaxOp{}, tid, smem);
// CU:      // reshaped through shared memory
// CU:      tilec::arg_reduce_tile<{{L[0-9]+}}, true, float, /*NAN_WINS=*/false>({{t[0-9]+}}, tid, smem);
