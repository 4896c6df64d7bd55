// Rank-3 tiles on the GPU (rank3_gpu_test.cpp runs these against the interpreter): a masked
// [A, B, C] block of a row-major [n0, n1, n2] array, broadcasting between [A, B, C],
// [A, B, 1], [1, B, C] and rank-2 tiles, reductions along each axis (keep-dims, argmax,
// a reduction of a reduction), tl::join of rank-2 tiles and tl::split of rank-3, rank-2 and
// rank-1 tiles, tl::permute / tl::reshape of rank-3 tiles and their whole-tile reductions,
// and scans along each axis of rank-3 tiles and of their slices.
#include <tilec/tl.h>

template <int A, int B, int C>
TILEC_KERNEL void rank3_ops(const float *x, const float *w, float *y, float *row_sums,
                            float *col_max, int *row_argmax, float *plane_sums, int n0, int n1,
                            int n2) {
  auto i = tl::program_id(0) * A + tl::arange<0, A>();
  auto j = tl::arange<0, B>();
  auto k = tl::arange<0, C>();
  auto i3 = tl::expand_dims<2>(tl::expand_dims<1>(i));  // [A, 1, 1]
  auto j3 = tl::expand_dims<-1>(tl::expand_dims<0>(j)); // [1, B, 1]
  auto k3 = tl::expand_dims<0>(tl::expand_dims<0>(k));  // [1, 1, C]
  auto mask = (i3 < n0) & (j3 < n1) & (k3 < n2);
  auto v = tl::load(x + i3 * (n1 * n2) + j3 * n2 + k3, mask); // [A, B, C]
  // A rank-2 [B, C] weight broadcast over axis 0, a row mean [A, B, 1] and a column minimum
  // [1, B, C] broadcast back.
  auto jc = tl::expand_dims<1>(j);
  auto kc = tl::expand_dims<0>(k);
  auto wt = tl::load(w + jc * n2 + kc, (jc < n1) & (kc < n2), 1.0f); // [B, C]
  auto mean = tl::sum<2, true>(v) / float(n2);
  auto low = tl::min<0, true>(v);
  tl::store(y + i3 * (n1 * n2) + j3 * n2 + k3, (v - mean) * wt + low, mask);
  // Reductions to rank 2, stored as [n0, n1] and [n0, n2] arrays, and to rank 1.
  auto ir = tl::expand_dims<1>(i);
  auto jr = tl::expand_dims<0>(j);
  auto sums = tl::sum<2>(v); // [A, B]
  tl::store(row_sums + ir * n1 + jr, sums, (ir < n0) & (jr < n1));
  tl::store(col_max + ir * n2 + kc, tl::max<1>(v), (ir < n0) & (kc < n2));
  tl::store(row_argmax + ir * n1 + jr, tl::argmax<2>(v), (ir < n0) & (jr < n1));
  tl::store(plane_sums + i, tl::sum<1>(sums), i < n0);
}

template <int A, int B>
TILEC_KERNEL void join_split(const float *p, const float *q, float *joined, float *lo, float *hi,
                             float *firsts, float *seconds, float *ends, int n0, int n1) {
  auto i = tl::program_id(0) * A + tl::arange<0, A>();
  auto ir = tl::expand_dims<1>(i);
  auto jc = tl::expand_dims<0>(tl::arange<0, B>());
  auto mask = (ir < n0) & (jc < n1);
  auto offs = ir * n1 + jc;
  auto a = tl::load(p + offs, mask);
  auto b = tl::load(q + offs, mask);
  auto t = tl::join(a, b); // [A, B, 2]
  auto two = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, 2>()));
  tl::store(joined + tl::expand_dims<2>(offs) * 2 + two, t, tl::expand_dims<2>(mask));
  // Split returns the exact elements (-0.0 and NaN payloads included).
  auto [even, odd] = tl::split(t);
  tl::store(lo + offs, even, mask);
  tl::store(hi + offs, odd, mask);
  // A rank-2 [A, 2] tile splits into two rank-1 tiles, a [2] tile into two scalars.
  auto pairs = tl::load(p + ir * 2 + tl::expand_dims<0>(tl::arange<0, 2>()), ir < n0 / 2);
  auto halves = tl::split(pairs);
  tl::store(firsts + i, halves.first, i < n0 / 2);
  tl::store(seconds + i, halves.second, i < n0 / 2);
  auto [e0, e1] = tl::split(tl::load(q + tl::arange<0, 2>()));
  tl::store(ends + tl::program_id(0) * 2, e1);
  tl::store(ends + tl::program_id(0) * 2 + 1, e0);
}

// Elements changing places in a masked [A, B, C] block: tl::permute / tl::trans with axes
// (stored masked as [n2, n0, n1] and [n1, n0, n2] arrays), tl::reshape from rank 3 to ranks
// 1, 2 and 3 and back to rank 3 (whole blocks per program, masked elements zero), and
// whole-tile reductions of rank-3 tiles (one value per program; keep_dims broadcast back).
template <int A, int B, int C>
TILEC_KERNEL void rank3_relayout(const float *x, float *permuted, float *swapped, float *flat,
                                 float *reshaped, float *sums, float *maxes, int *argmins,
                                 float *centered, int n0, int n1, int n2) {
  auto pid = tl::program_id(0);
  auto i = pid * A + tl::arange<0, A>();
  auto j = tl::arange<0, B>();
  auto k = tl::arange<0, C>();
  auto i3 = tl::expand_dims<2>(tl::expand_dims<1>(i)); // [A, 1, 1]
  auto j3 = tl::expand_dims<2>(tl::expand_dims<0>(j)); // [1, B, 1]
  auto k3 = tl::expand_dims<0>(tl::expand_dims<0>(k)); // [1, 1, C]
  auto mask = (i3 < n0) & (j3 < n1) & (k3 < n2);
  auto v = tl::load(x + i3 * (n1 * n2) + j3 * n2 + k3, mask); // [A, B, C]
  // [C, A, B] into an [n2, n0, n1] array.
  auto kp = tl::expand_dims<2>(tl::expand_dims<1>(k));
  auto ip = tl::expand_dims<2>(tl::expand_dims<0>(i));
  auto jp = tl::expand_dims<0>(tl::expand_dims<0>(j));
  tl::store(permuted + kp * (n0 * n1) + ip * n1 + jp, tl::permute<2, 0, 1>(v),
            (kp < n2) & (ip < n0) & (jp < n1));
  // [B, A, C] into an [n1, n0, n2] array.
  auto js = tl::expand_dims<2>(tl::expand_dims<1>(j));
  auto is = tl::expand_dims<2>(tl::expand_dims<0>(i));
  tl::store(swapped + js * (n0 * n2) + is * n2 + k3, tl::trans<1, 0, 2>(v),
            (js < n1) & (is < n0) & (k3 < n2));
  // Rank 3 -> 1, and each program's block of A * B * C elements.
  auto block = pid * (A * B * C);
  tl::store(flat + block + tl::arange<0, A * B * C>(), tl::reshape<A * B * C>(v));
  // Rank 3 -> 2 -> 3 and 3 -> 3 -> 1: [C, A * B] seen as [B, C, A], then as [C, B, A].
  auto r = tl::reshape<B, C, A>(tl::reshape<C, A * B>(v));
  auto rr = tl::reshape<A * B * C>(tl::reshape<C, B, A>(r) * 2.0f);
  auto rb = tl::expand_dims<2>(tl::expand_dims<1>(tl::arange<0, B>()));
  auto rc = tl::expand_dims<2>(tl::expand_dims<0>(tl::arange<0, C>()));
  auto ra = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, A>()));
  tl::store(reshaped + block * 2 + rb * (C * A) + rc * A + ra, r);
  tl::store(reshaped + block * 2 + A * B * C + tl::arange<0, A * B * C>(), rr);
  // Whole-tile reductions, one value per program.
  tl::store(sums + pid, tl::sum(v));
  tl::store(maxes + pid, tl::max<tl::all_axes>(v));
  tl::store(argmins + pid, tl::argmin(v));
  tl::store(centered + i3 * (n1 * n2) + j3 * n2 + k3, v - tl::max<tl::all_axes, true>(v), mask);
}

/// "f, then g" for affine maps x -> a * x + b (mod 2^16) packed as (a << 16) | b: associative
/// but not commutative, so a scan with it shows the order in which elements were combined.
TILEC_FUNC uint32_t compose_maps(uint32_t f, uint32_t g) {
  uint32_t fa = f >> 16, fb = f & 0xffffu, ga = g >> 16, gb = g & 0xffffu;
  return (((ga * fa) & 0xffffu) << 16) | ((ga * fb + gb) & 0xffffu);
}

// Scans of a masked [A, B, C] block (0, or the identity map (1, 0), outside the array) along
// each axis, forwards and backwards: running sums down axis 0 and back along axis 1, running
// products along axis 2, the order-sensitive compose along axes 2 and 0 (backwards). Then
// scans of slices, which live in the layouts of the tiles they were reduced from: the [A, B]
// row sums along axis 1, their [A] totals backwards, and the [A] row maxima of a rank-2
// [A, C] tile, broadcast back into it.
template <int A, int B, int C>
TILEC_KERNEL void rank3_scans(const float *x, const uint32_t *maps, float *sum0, float *sum1_rev,
                              float *prod2, uint32_t *compose2, uint32_t *compose0_rev,
                              float *row_scan, float *plane_scan, float *flat_scan, int n0,
                              int n1, int n2) {
  auto i = tl::program_id(0) * A + tl::arange<0, A>();
  auto j = tl::arange<0, B>();
  auto k = tl::arange<0, C>();
  auto i3 = tl::expand_dims<2>(tl::expand_dims<1>(i)); // [A, 1, 1]
  auto j3 = tl::expand_dims<2>(tl::expand_dims<0>(j)); // [1, B, 1]
  auto k3 = tl::expand_dims<0>(tl::expand_dims<0>(k)); // [1, 1, C]
  auto mask = (i3 < n0) & (j3 < n1) & (k3 < n2);
  auto offs = i3 * (n1 * n2) + j3 * n2 + k3;
  auto v = tl::load(x + offs, mask);
  tl::store(sum0 + offs, tl::cumsum<0>(v), mask);
  tl::store(sum1_rev + offs, tl::cumsum<1, true>(v), mask);
  tl::store(prod2 + offs, tl::cumprod<2>(1.0f + v * 0.25f), mask);
  auto m = tl::load(maps + offs, mask, 65536u);
  tl::store(compose2 + offs, tl::associative_scan<2>(m, compose_maps), mask);
  tl::store(compose0_rev + offs, tl::associative_scan<0, true>(m, compose_maps), mask);
  auto ir = tl::expand_dims<1>(i);
  auto jr = tl::expand_dims<0>(j);
  auto rows = tl::sum<2>(v); // [A, B], a slice of v's layout
  tl::store(row_scan + ir * n1 + jr, tl::cumsum<1>(rows), (ir < n0) & (jr < n1));
  tl::store(plane_scan + i, tl::cumsum<0, true>(tl::sum<1>(rows)), i < n0);
  auto kc = tl::expand_dims<0>(k);
  auto flat_mask = (ir < n0) & (kc < n2);
  auto flat = tl::load(x + ir * n2 + kc, flat_mask); // [A, C], the first n0 * n2 values
  auto peaks = tl::cumsum<0>(tl::max<1>(flat));     // [A], a slice of flat's layout
  tl::store(flat_scan + ir * n2 + kc, flat - tl::expand_dims<1>(peaks), flat_mask);
}
