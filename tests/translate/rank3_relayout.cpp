// Rank-3 tiles whose elements change places, through shared memory: tl::permute (and
// tl::trans with its axes) moves each element from its source position into a Blocked3D of
// the permuted shape; tl::reshape between rank 3 and ranks 1 to 3 keeps the row-major order;
// a whole-tile reduction of a rank-3 tile is a reshape to rank 1 and a rank-1 reduction.
#include <tilec/tl.h>

template <int A, int B, int C>
TILEC_KERNEL void relayout3(const float *x, float *out_p, float *out_flat, float *out_r,
                            float *total, int *where) {
  auto i = tl::expand_dims<2>(tl::expand_dims<1>(tl::arange<0, A>()));
  auto j = tl::expand_dims<2>(tl::expand_dims<0>(tl::arange<0, B>()));
  auto k = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, C>()));
  auto v = tl::load(x + i * (B * C) + j * C + k); // [A, B, C]
  auto p = tl::permute<2, 0, 1>(v);               // [C, A, B]
  auto kp = tl::expand_dims<2>(tl::expand_dims<1>(tl::arange<0, C>()));
  auto ip = tl::expand_dims<2>(tl::expand_dims<0>(tl::arange<0, A>()));
  auto jp = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, B>()));
  tl::store(out_p + kp * (A * B) + ip * B + jp, p + tl::trans<0, 1, 2>(p));
  tl::store(out_flat + tl::arange<0, A * B * C>(), tl::reshape<A * B * C>(v));
  auto r = tl::reshape<B, C, A>(tl::reshape<A * B, C>(v)); // [B, C, A]
  auto jr = tl::expand_dims<2>(tl::expand_dims<1>(tl::arange<0, B>()));
  auto kr = tl::expand_dims<2>(tl::expand_dims<0>(tl::arange<0, C>()));
  auto ir = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, A>()));
  tl::store(out_r + jr * (C * A) + kr * A + ir, r);
  tl::store(total, tl::sum(v));
  tl::store(where, tl::argmax<tl::all_axes>(v));
}

// IR:      %{{[0-9]+}}:p = trans %{{[0-9]+}}:v [2] [0] [1] : tile<float, C, A, B> #[[P:[0-9]+]]
// IR:      = reshape %{{[0-9]+}}:v : tile<float, (A * B) * C>
// IR:      = reshape %{{[0-9]+}}:v : tile<float, A * B, C>
// IR:      = reshape %{{[0-9]+}} : tile<float, B, C, A>
// IR:      = reshape %{{[0-9]+}}:v : tile<float, (A * B) * C>
// IR-NEXT: = reduce "sum" %{{[0-9]+}} [0] : float
// IR:      = reshape %{{[0-9]+}}:v : tile<float, (A * B) * C>
// IR-NEXT: = reduce "argmax" %{{[0-9]+}} [0] : int

// CU:      using L0 = tilec::Blocked3D<A, B, C, THREADS, L0_RUN>;
// CU:      using [[LP:L[0-9]+]] = tilec::Blocked3D<C, A, B, THREADS, [[LP]]_RUN>;
// CU:      // permuted through shared memory: axes <2, 0, 1> of [A, B, C]
// CU-NEXT: float p[[[LP]]::ELEMS];
// CU-NEXT: tilec::permute<L0, [[LP]], A, B, C, 2, 0, 1>(v, p, tid, smem);
// CU:      // reshaped through shared memory
// CU:      tilec::reshape<L0, {{L[0-9]+}}>(v, {{t[0-9]+}}, tid, smem);
// CU:      tilec::reduce_tile<{{L[0-9]+}}>({{t[0-9]+}}, tilec::SumOp{}, tid, smem);
// CU:      tilec::arg_reduce_tile<{{L[0-9]+}}, true, float, /*NAN_WINS=*/false>({{t[0-9]+}}, tid, smem);
