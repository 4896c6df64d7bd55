// One rank-1 tile used both as the rows and as the columns of a rank-2 tile: it lives in one
// slice, and the other slice recomputes it (an arange is cheaper than a conversion through
// shared memory: the remat pass); a row-sum tile (a slice) reduced to a scalar is first
// converted to a rank-1 blocked layout, through shared memory.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void grid_index(int* out, float* total) {
  auto r = tl::arange<0, B>();
  auto t = tl::expand_dims<1>(r) * 1000 + tl::expand_dims<0>(r);
  tl::store(out + tl::expand_dims<1>(r) * B + tl::expand_dims<0>(r), t);
  tl::store(total, tl::sum(tl::sum<1>(tl::cast<float>(t))));
}

// IR-LABEL: kernel @grid_index<int B>
// IR:      %{{[0-9]+}}:r = arange [0] [B] : tile<int, B> #1
// IR-NEXT: %{{[0-9]+}}:r = arange [0] [B] : tile<int, B> #2
// IR-NOT:  = convert_layout %{{[0-9]+}}:r
// IR:      = convert_layout %{{[0-9]+}} : tile<float, B> #3

// CU:      using L3 = tilec::Blocked1D<B, THREADS, 1>;
// One buffer for every use, as large as the largest:
// CU:      __shared__ alignas(16) unsigned char smem[tilec::cmax(tilec::kScratchBytes, tilec::cmax(tilec::axis_scratch_bytes<L0, 1, float>(), L1::TILE_SIZE * sizeof(float)))];
// CU:      moved from layout L1 to L3 through shared memory
// CU:      tilec::convert_layout<L1, L3, float, THREADS>(
// CU:      tilec::reduce_tile<L3>(
