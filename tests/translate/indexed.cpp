// tl::flip, tl::gather and tl::histogram: one op each in the IR (flip and gather carry their
// axis, a negative one counted from the end; a flip along a unit axis is no op), and one
// device-library call each in the CUDA, through the shared scratch buffer. A gather's result
// has its index's layout; a histogram's mask has its values'.
#include <tilec/tl.h>

template <int M, int N, int BINS>
TILEC_KERNEL void indexed(const float *x, const int *cols, const int *values, float *out,
                          int *counts, int n) {
  auto r = tl::expand_dims<1>(tl::arange<0, M>());
  auto c = tl::expand_dims<0>(tl::arange<0, N>());
  auto v = tl::load(x + r * N + c);
  auto across = tl::flip(v);
  auto down = tl::flip<-2>(v);
  auto picked = tl::gather<1>(v, tl::load(cols + r * N + c));
  auto same = tl::flip<0>(c); // [1, N]: one element along axis 0
  tl::store(out + r * N + same, across + down + picked);
  auto i = tl::arange<0, M * N>();
  auto vals = tl::load(values + i, i < n);
  tl::store(counts + tl::arange<0, BINS>(), tl::histogram<BINS>(vals, i < n));
  tl::store(counts + BINS + tl::arange<0, BINS>(), tl::histogram<BINS>(vals));
}

// IR:      %{{[0-9]+}}:v = load %{{[0-9]+}} : tile<float, M, N> #[[V:[0-9]+]]
// IR-NEXT: %{{[0-9]+}}:across = flip %{{[0-9]+}}:v [1] : tile<float, M, N> #[[V]]
// IR-NEXT: %{{[0-9]+}}:down = flip %{{[0-9]+}}:v [0] : tile<float, M, N> #[[V]]
// IR:      [[IDX:%[0-9]+]] = load %{{[0-9]+}} : tile<int, M, N> #[[V]]
// IR-NEXT: %{{[0-9]+}}:picked = gather %{{[0-9]+}}:v, [[IDX]] [1] : tile<float, M, N> #[[V]]
// IR-NOT:  flip
// IR:      %{{[0-9]+}}:vals = load %{{[0-9]+}}, %{{[0-9]+}} : tile<int, M * N> #[[I:[0-9]+]]
// IR:      [[MASK:%[0-9]+]] = binary "<" %{{[0-9]+}}:i, %{{[0-9]+}}:n : tile<bool, M * N> #[[I]]
// IR-NEXT: = histogram %{{[0-9]+}}:vals, [[MASK]] : tile<int, BINS> #{{[0-9]+}}
// IR:      = histogram %{{[0-9]+}}:vals : tile<int, BINS>

// CU:      __shared__ alignas(16) unsigned char smem[tilec::cmax(tilec::tile_elements<L0>() * sizeof(float), sizeof(int) * BINS)];
// CU:      // indexed.cpp:13: tl::flip(v)
// CU-NEXT: // v reversed along axis 1 of [M, N], through shared memory
// CU-NEXT: float across[L0::ELEMS];
// CU-NEXT: tilec::flip<L0, L0, N, 1>(v, across, tid, smem);
// CU:      // v reversed along axis 0 of [M, N], through shared memory
// CU-NEXT: float down[L0::ELEMS];
// CU-NEXT: tilec::flip<L0, L0, M, N>(v, down, tid, smem);
// CU:      // v [M, N] read along axis 1 at the positions [[IDX:t[0-9]+]] [M, N] holds, through shared memory
// CU-NEXT: float picked[L0::ELEMS];
// CU-NEXT: tilec::gather<L0, L0, N, N, 1>(v, [[IDX]], picked, tid, smem);
// CU:      // histogram of vals where [[MASK:t[0-9]+]] holds: how many elements equal each of 0 .. BINS - 1, counted with shared-memory atomics
// CU-NEXT: int [[H:t[0-9]+]][L4::ELEMS];
// CU-NEXT: tilec::histogram<L3, L4, BINS, THREADS>(vals, [[MASK]], [[H]], tid, smem);
// CU:      tilec::histogram<L3, L4, BINS, THREADS>(vals, {{t[0-9]+}}, tid, smem);
