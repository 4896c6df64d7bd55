// tl::join of rank-2 tiles is a [M, N, 2] tile (a select on the new axis, no shared memory);
// tl::split takes a last axis of size 2 apart as two reductions of it whose combine keeps the
// first or the last element, folded in index order, so the halves are the exact elements.
#include <tilec/tl.h>

template <int M, int N>
TILEC_KERNEL void swap_halves(const float *a, const float *b, float *out, int m) {
  auto rows = tl::expand_dims<1>(tl::program_id(0) * M + tl::arange<0, M>());
  auto offs = rows * N + tl::expand_dims<0>(tl::arange<0, N>());
  auto t = tl::join(tl::load(a + offs, rows < m), tl::load(b + offs, rows < m));
  auto [lo, hi] = tl::split(t);
  tl::store(out + offs, hi - lo, rows < m);
  auto pair = tl::split(tl::load(a + tl::arange<0, 2>()));
  tl::store(out, pair.second);
}

// IR:      %{{[0-9]+}}:t = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<float, M, N, 2>
// IR-NEXT: %{{[0-9]+}}:lo = reduce "first" %{{[0-9]+}}:t [2] : tile<float, M, N>
// IR-NEXT: %{{[0-9]+}}:hi = reduce "last" %{{[0-9]+}}:t [2] : tile<float, M, N>
// IR:      = reduce "last" %{{[0-9]+}} [0] : float

// CU:      using L0 = tilec::Blocked3D<M, N, 2, THREADS, 1>;
// CU:      float t[L0::ELEMS];
// CU-NEXT: #pragma unroll
// CU-NEXT: for (int i = 0; i < L0::ELEMS; ++i) t[i] = (({{.*}} == 0) ? {{t[0-9]+}}[L2::from_parent(i)] : {{t[0-9]+}}[L2::from_parent(i)]);
// CU:      float lo[L2::ELEMS];
// CU-NEXT: tilec::reduce_axis_smem<L0, 2>(t, lo, tilec::FirstOp{}, tid, smem);
// CU:      float hi[L2::ELEMS];
// CU-NEXT: tilec::reduce_axis_smem<L0, 2>(t, hi, tilec::LastOp{}, tid, smem);
// CU:      const float pair_second = tilec::reduce_tile<{{L[0-9]+}}>({{t[0-9]+}}, tilec::LastOp{}, tid, smem);
