// Rank-3 tiles: a Blocked3D layout for [A, B, C], and its slices for what is reduced from it
// or broadcast into it ([A, B, 1] row means, [A, 1, 1] / [1, B, 1] / [1, 1, C] index tiles),
// so that broadcasting back is a register read. Axis reductions go through shared memory.
#include <tilec/tl.h>

template <int A, int B, int C>
TILEC_KERNEL void center_rows(const float *x, float *y, float *col_sums, int n0, int n1, int n2) {
  auto i = tl::expand_dims<2>(tl::expand_dims<1>(tl::program_id(0) * A + tl::arange<0, A>()));
  auto j = tl::expand_dims<2>(tl::expand_dims<0>(tl::arange<0, B>()));
  auto k = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, C>()));
  auto offs = i * (n1 * n2) + j * n2 + k;
  auto mask = (i < n0) & (j < n1) & (k < n2);
  auto v = tl::load(x + offs, mask);
  tl::store(y + offs, v - tl::sum<2, true>(v) / float(n2), mask);
  auto kc = tl::arange<0, C>();
  tl::store(col_sums + tl::expand_dims<1>(tl::arange<0, B>()) * n2 + tl::expand_dims<0>(kc),
            tl::sum<0>(v));
}

// IR:      layout #0 blocked[A, B, C] max_vec=tilec::cmin(4, tilec::gcd((y_aligned ? 16 : 4), 
// IR-NEXT: layout #1 slice #0 dim=2
// IR-NEXT: layout #2 slice #0 dim=1
// IR-NEXT: layout #3 slice #0 dim=0
// IR-NEXT: layout #4 slice #1 dim=1
// IR:      = broadcast %{{[0-9]+}} : tile<bool, A, B, 1> #1
// IR:      = broadcast %{{[0-9]+}} : tile<bool, A, 1, C> #2
// IR:      %{{[0-9]+}}:v = load %{{[0-9]+}}, %{{[0-9]+}}:mask : tile<float, A, B, C> #0
// IR:      = reduce "sum" %{{[0-9]+}}:v [2] : tile<float, A, B> #1
// IR:      = reduce "sum" %{{[0-9]+}}:v [0] : tile<float, B, C> #3

// CU:      // L0: a [A, B, C] tile over THREADS threads, row-major, runs of up to L0_RUN consecutive elements along the last dimension per thread
// CU-NEXT: using L0 = tilec::Blocked3D<A, B, C, THREADS, L0_RUN>;
// CU-NEXT: // L1: L0 tiles without their dimension 2 (reduced, or broadcast back)
// CU-NEXT: using L1 = tilec::Slice<L0, 2>;
// CU:      using L4 = tilec::Slice<L1, 1>;
// CU:      __shared__ alignas(16) unsigned char smem[tilec::tile_elements<L0>() * sizeof(float)];
// CU:      mask[i] = (((i_1[L4::from_parent(L1::from_parent(i))] < n0) & (j[L5::from_parent(L1::from_parent(i))] < n1)) & (k[L6::from_parent(L2::from_parent(i))] < n2));
// CU:      tilec::load_vec<v_width, v_mask_uniform>(&v[i], {{.*}}, &mask[i], 0.0f);
// CU:      float [[SUM:t[0-9]+]][L1::ELEMS];
// CU-NEXT: tilec::reduce_axis_smem<L0, 2>(v, [[SUM]], tilec::SumOp{}, tid, smem);
// CU:      (v[i] - tilec::fdiv([[SUM]][L1::from_parent(i)], tilec::cast<float>(n2)))
// CU:      tilec::reduce_axis_smem<L0, 0>(v, {{t[0-9]+}}, tilec::SumOp{}, tid, smem);

// Scans of rank-3 tiles, and of the slices reduced from them, go line by line through shared
// memory in the tile's own layout; device_print names each element by its three coordinates.
template <int A, int B, int C> TILEC_KERNEL void running_sums(const float *x, float *y, int n2) {
  auto i = tl::expand_dims<2>(tl::expand_dims<1>(tl::arange<0, A>()));
  auto j = tl::expand_dims<2>(tl::expand_dims<0>(tl::arange<0, B>()));
  auto k = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, C>()));
  auto offs = i * (B * C) + j * C + k;
  auto v = tl::load(x + offs, k < n2);
  tl::store(y + offs, tl::cumsum<1, true>(v));
  tl::store(y + tl::arange<0, A>(), tl::cumsum<0>(tl::sum<1>(tl::sum<2>(v))));
  tl::device_print("v", v);
}

// IR:      kernel @running_sums<int A, int B, int C>
// IR:      scan "cumsum" %{{[0-9]+}}:v [1] [1] : tile<float, A, B, C> #0
// CU:      __global__ void TILEC_LAUNCH_BOUNDS(NUM_WARPS * tilec::WARP_SIZE)
// CU-NEXT: running_sums(
// CU:      tilec::scan_axis_smem_bytes<L0, float>()
// CU:      tilec::scan_axis_smem<L0, 1, THREADS, float, decltype(tilec::SumOp{}), true>(t{{[0-9]+}}, tilec::SumOp{}, tid, smem);
// CU:      tilec::device_print("v", L0::axis_coord(tid, i, 0), L0::axis_coord(tid, i, 1), L0::axis_coord(tid, i, 2), v[i]);
