// tl::flip, tl::gather and tl::histogram of tiles in every kind of layout: a tl::dot result
// (the tensor cores' accumulators), row and column slices of reductions, tiles with a unit
// dimension, rank-3 tiles and their slices, pointer and half tiles, values carried through a
// loop. Each reads its source through shared memory by row-major position, so any layout
// works; NVRTC compiles the result (tests/nvrtc).
#include <tilec/tl.h>

template <int M, int N, int K>
TILEC_KERNEL void dot_flipped(const tl::half *a, const tl::half *b, float *out, int *counts) {
  auto m = tl::expand_dims<1>(tl::arange<0, M>());
  auto n = tl::expand_dims<0>(tl::arange<0, N>());
  auto k = tl::arange<0, K>();
  auto acc = tl::dot(tl::load(a + m * K + tl::expand_dims<0>(k)),
                     tl::load(b + tl::expand_dims<1>(k) * N + n));
  tl::store(out + m * N + n, tl::flip<0>(acc));
  auto best = tl::argmax<1>(acc); // a row slice of the accumulators' layout
  tl::store(counts + tl::arange<0, N>(), tl::histogram<N>(best));
  tl::store(out + M * N + tl::arange<0, M>(), tl::flip(tl::sum<1>(acc)));
}

template <int R, int C>
TILEC_KERNEL void slices(const float *x, const tl::half *h, float *out, tl::half *hout,
                         float *firsts, int steps) {
  auto r = tl::expand_dims<1>(tl::arange<0, R>());
  auto c = tl::expand_dims<0>(tl::arange<0, C>());
  auto v = tl::load(x + r * C + c);
  auto col_max = tl::max<0>(v); // a column slice
  tl::store(out + tl::arange<0, C>(), tl::flip(col_max));
  auto rows_unit = tl::expand_dims<1>(tl::max<1>(v)); // [R, 1]
  tl::store(out + C + r, tl::flip<0>(rows_unit));
  auto four = tl::expand_dims<1>(tl::arange<0, 4>()); // [4, 1]
  auto picked = tl::gather<0>(rows_unit, four);
  tl::store(out + C + R + four, picked);
  auto hv = tl::load(h + r * C + c);
  tl::store(hout + r * C + c, tl::gather<1>(hv, tl::flip(c) + r * 0));
  auto p = tl::flip(x + tl::arange<0, C>()); // pointers move like any element
  tl::store(firsts + tl::arange<0, C>(), tl::load(p));
  auto carried = tl::arange<0, C>();
  for (int s = 0; s < steps; ++s)
    carried = tl::flip(carried) + 1;
  tl::store(out + C + R + 4 + tl::arange<0, C>(), tl::cast<float>(carried));
}

template <int A, int B, int C>
TILEC_KERNEL void rank3_slices(const float *x, float *out, int *counts) {
  auto i = tl::expand_dims<2>(tl::expand_dims<1>(tl::arange<0, A>()));
  auto j = tl::expand_dims<2>(tl::expand_dims<0>(tl::arange<0, B>()));
  auto k = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, C>()));
  auto v = tl::load(x + i * (B * C) + j * C + k);
  auto plane = tl::sum<1>(v); // [A, C], a slice of the rank-3 layout
  auto ii = tl::expand_dims<1>(tl::arange<0, A>());
  auto kk = tl::expand_dims<0>(tl::arange<0, C>());
  tl::store(out + ii * C + kk, tl::flip<1>(plane));
  auto line = tl::argmax<0>(tl::max<1>(v)); // [C] indices, a slice of a slice
  tl::store(counts + tl::arange<0, A>(), tl::histogram<A>(line, line > 0));
  auto unit = tl::sum<1, true>(v); // [A, 1, C]
  tl::store(out + A * C + i * C + k, tl::flip<2>(unit));
}

// IR:      = flip %{{[0-9]+}}:acc [0] : tile<float, M, N>
// IR:      = histogram %{{[0-9]+}}:best : tile<int, N>
// IR:      = flip %{{[0-9]+}}:col_max [0] : tile<float, C>
// IR:      = flip %{{[0-9]+}}:rows_unit [0] : tile<float, R, 1>
// IR:      %{{[0-9]+}}:picked = gather %{{[0-9]+}}:rows_unit, %{{[0-9]+}}:four [0] : tile<float, 4, 1>
// IR:      = flip %{{[0-9]+}} [0] : tile<const float*, C>
// IR:      = flip %{{[0-9]+}}:plane [1] : tile<float, A, C>
// IR:      = histogram %{{[0-9]+}}:line, %{{[0-9]+}} : tile<int, A>

// CU:      tilec::flip<L{{[0-9]+}}, L{{[0-9]+}}, M, N>(acc,
// CU:      using [[P:L[0-9]+]] = tilec::Blocked3D<A, B, C, THREADS, [[P]]_RUN>;
// CU:      // plane reversed along axis 1 of [A, C], through shared memory
// CU:      tilec::histogram<L{{[0-9]+}}, L{{[0-9]+}}, A, THREADS>(line,
