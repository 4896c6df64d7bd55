// Scans and arg reductions along one axis of rank-2 tiles: the tile keeps its blocked layout
// (scan_axis scans it in place), arg reductions leave their indices in the slice layout of
// the kept dimension, like the other axis reductions; a scan along the long axis of a [1, N]
// tile goes through a rank-1 scan, one along a dimension of size 1 is the tile itself.
#include <tilec/tl.h>

TILEC_FUNC float larger(float a, float b) { return a > b ? a : b; }

template <int BM, int BN, bool REV>
TILEC_KERNEL void scans_2d(const float* x, float* out, int* idx, int n) {
  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto offs = tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols);
  auto v = tl::load(x + offs);
  auto s = tl::cumsum<1>(v) + tl::cumprod<0, REV>(v) + tl::associative_scan<0, true>(v, larger);
  tl::store(out + offs, s);
  tl::store(idx + rows, tl::argmax<1>(v));
  tl::store(idx + tl::expand_dims<0>(cols), tl::argmin<0, true>(v));
  auto row = tl::load(x + tl::expand_dims<0>(cols));
  tl::store(out + tl::expand_dims<0>(cols), tl::cumsum<1>(row) + tl::cumsum<0>(row));
}

// IR-LABEL: kernel @scans_2d<int BM, int BN, bool REV>
// IR:      layout #0 blocked[BM, BN]
// IR-NEXT: layout #1 slice #0 dim=1
// IR-NEXT: layout #2 slice #0 dim=0
// IR:      = scan "cumsum" %{{[0-9]+}}:v [0] [1] : tile<float, BM, BN> #0
// IR:      = scan "cumprod" %{{[0-9]+}}:v [REV] [0] : tile<float, BM, BN> #0
// IR:      = scan "associative_scan" %{{[0-9]+}}:v [1] [0] : tile<float, BM, BN> #0
// IR:      = reduce "argmax" %{{[0-9]+}}:v [1] : tile<int, BM> #1
// IR:      [[ARGMIN:%[0-9]+]] = reduce "argmin" %{{[0-9]+}}:v [0] : tile<int, BN> #2
// IR-NEXT: = expand_dims [[ARGMIN]] [0] : tile<int, 1, BN> #2
// The [1, BN] row: reshaped to rank 1, scanned, expanded back (held as the columns of L0,
// it moves to a rank-1 layout for the scan and back); cumsum<0> leaves it as it is.
// IR:      [[FLAT:%[0-9]+]] = reshape %{{[0-9]+}}:row : tile<float, BN> #[[R1:[0-9]+]]
// IR-NEXT: [[SCAN:%[0-9]+]] = scan "cumsum" [[FLAT]] [0] [0] : tile<float, BN> #[[R1]]
// IR-NEXT: [[CONV:%[0-9]+]] = convert_layout [[SCAN]] : tile<float, BN> #2
// IR-NEXT: [[BACK:%[0-9]+]] = expand_dims [[CONV]] [0] : tile<float, 1, BN> #2
// IR-NEXT: = binary "+" [[BACK]], %{{[0-9]+}}:row : tile<float, 1, BN> #2

// CU:      __shared__ alignas(16) unsigned char smem[{{.*}}tilec::scan_axis_bytes<L0, 1, float>(){{.*}}tilec::scan_axis_bytes<L0, 0, float>(){{.*}}tilec::arg_axis_scratch_bytes<L0, 1, float>(){{.*}}tilec::arg_axis_scratch_bytes<L0, 0, float>(){{.*}}];
// CU:      tilec::scan_axis<L0, 1, float, decltype(tilec::SumOp{})>([[T1:t[0-9]+]], tilec::SumOp{}, tid, smem);
// CU:      tilec::scan_axis<L0, 0, float, decltype(tilec::ProdOp{}), bool(REV)>(
// The combine function becomes a lambda; the scan keeps the tile's order (REVERSE: true).
// CU:      auto combine = [&](float a, float b) {
// CU:      tilec::scan_axis<L0, 0, float, decltype(combine), true>(
// CU:      int [[AMAX:t[0-9]+]][L1::ELEMS];
// CU-NEXT: tilec::arg_reduce_axis<L0, 1, true, float, /*NAN_WINS=*/false>(v, [[AMAX]], tid, smem);
// CU:      tilec::arg_reduce_axis<L0, 0, false, float, /*NAN_WINS=*/false>(v,
// CU:      tilec::reshape<
// CU:      tilec::scan_tile<L{{[0-9]+}}, float, decltype(tilec::SumOp{})>(
