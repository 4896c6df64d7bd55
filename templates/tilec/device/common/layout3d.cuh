// layout3d.cuh: rank-3 tiles over a thread block, and the lower-rank slices of them that
// reductions produce and expand_dims / broadcasting consume.
//
// Blocked3D<D0, D1, D2, THREADS, MAX_VEC>: a [D0, D1, D2] tile, row-major. Each thread holds
// runs of VEC consecutive elements along axis 2; a warp's lanes sit TW2 runs side by side
// along axis 2, then TW1 along axis 1, then TW0 along axis 0; warps are laid out the same way
// (W2, W1, W0). One pass of the block covers PASS0 x PASS1 x PASS2 elements; a thread repeats
// that R0 x R1 x R2 times, and numbers its elements in row-major order of the repeats:
//
//   element i of thread t:  i = ((r0 * R1 + r1) * R2 + r2) * VEC + v
//   c0 = r0 * PASS0 + t0(t),   c1 = r1 * PASS1 + t1(t),   c2 = r2 * PASS2 + t2(t) * VEC + v
//
// Axes 1 and 2 never repeat across threads (PASS1 <= D1, PASS2 <= D2 by construction); axis
// 0 does when D0 < PASS0: such threads hold copies and are not owners.
//
// Blocked3DAxes<..., AXES> is the same distribution of threads holding only the axes in the
// bit mask AXES (Blocked3D keeps all three). Slice<L, DIM> of such a layout drops its DIM-th
// kept axis: the [D0, D1] result of tl::sum<2> of a Blocked3D tile lives in
// Slice<Blocked3D<...>, 2>, each thread holding the values of the (c0, c1) it covers, so
// broadcasting it back is a register read (element i of the parent is element from_parent(i)
// of the slice). A slice of a slice keeps one axis (a [D0, 1, 1] tile broadcast into
// [D0, D1, D2], one axis at a time).
#pragma once

#include <tilec/device/common/constexpr_math.cuh>
#include <tilec/device/common/layout2d.cuh>

namespace tilec {

namespace detail {
__host__ __device__ constexpr int axis_count(int axes) {
  return (axes & 1) + (axes >> 1 & 1) + (axes >> 2 & 1);
}
/// `axes` without its k-th set bit (k counts from axis 0).
__host__ __device__ constexpr int drop_kept_axis(int axes, int k) {
  for (int a = 0; a < 3; ++a)
    if (axes >> a & 1) {
      if (k == 0)
        return axes & ~(1 << a);
      --k;
    }
  return axes;
}
/// The axis of the [D0, D1, D2] tile that is the k-th kept one of `axes`.
__host__ __device__ constexpr int kept_axis(int axes, int k) {
  for (int a = 0; a < 3; ++a)
    if (axes >> a & 1) {
      if (k == 0)
        return a;
      --k;
    }
  return -1;
}

/// ROWS, COLS, row() and col() for the layouts that hold two axes, so that they serve where
/// a rank-2 layout is expected (transposes, dot operands).
template <class L, int RANK, int ROWS_, int COLS_, int A, int B> struct Blocked3DRank2 {};
template <class L, int ROWS_, int COLS_, int A, int B>
struct Blocked3DRank2<L, 2, ROWS_, COLS_, A, B> {
  static constexpr int ROWS = ROWS_, COLS = COLS_;
  __device__ static constexpr int row(int tid, int i) { return L::axis_coord(tid, i, A); }
  __device__ static constexpr int col(int tid, int i) { return L::axis_coord(tid, i, B); }
};
} // namespace detail

template <int D0, int D1, int D2, int THREADS, int MAX_VEC, int AXES> struct Blocked3DAxes;

namespace detail {
template <int D0, int D1, int D2, int THREADS, int MAX_VEC, int AXES>
using Blocked3DRank2Of =
    Blocked3DRank2<Blocked3DAxes<D0, D1, D2, THREADS, MAX_VEC, AXES>, axis_count(AXES),
                   kept_axis(AXES, 0) == 0 ? D0 : D1, kept_axis(AXES, 1) == 2 ? D2 : D1,
                   kept_axis(AXES, 0), kept_axis(AXES, 1)>;
} // namespace detail

template <int D0, int D1, int D2, int THREADS, int MAX_VEC, int AXES>
struct Blocked3DAxes : detail::Blocked3DRank2Of<D0, D1, D2, THREADS, MAX_VEC, AXES> {
  static_assert(D0 > 0 && (D0 & (D0 - 1)) == 0 && D1 > 0 && (D1 & (D1 - 1)) == 0 && D2 > 0 &&
                    (D2 & (D2 - 1)) == 0,
                "tile dimensions must be powers of two");
  static_assert(THREADS >= 32 && (THREADS & (THREADS - 1)) == 0,
                "num_warps must be a power of two");
  static_assert(AXES > 0 && AXES < 8, "a layout keeps one to three axes");
  template <int M> using WithAxes = Blocked3DAxes<D0, D1, D2, THREADS, MAX_VEC, M>;
  static constexpr bool LINEAR = true; // elements are placed by linear() (relayout.cuh)
  static constexpr int KEPT = AXES, RANK = detail::axis_count(AXES);
  static constexpr int SIZE0 = D0, SIZE1 = D1, SIZE2 = D2;

  // The distribution of the whole [D0, D1, D2] tile.
  static constexpr int WARPS = THREADS / 32;
  static constexpr int RUN = int(cmin(MAX_VEC, D2));
  static constexpr int TW2 = int(cmin(32, D2 / RUN));
  static constexpr int TW1 = int(cmin(32 / TW2, D1));
  static constexpr int TW0 = 32 / (TW2 * TW1);
  static constexpr int W2 = int(cmin(WARPS, cmax(1, D2 / (RUN * TW2))));
  static constexpr int W1 = int(cmin(WARPS / W2, cmax(1, D1 / TW1)));
  static constexpr int W0 = WARPS / (W2 * W1);
  static constexpr int PASS0 = TW0 * W0, PASS1 = TW1 * W1, PASS2 = RUN * TW2 * W2;
  static constexpr bool REPLICATED = D0 < PASS0;
  static constexpr int R0 = REPLICATED ? 1 : D0 / PASS0, R1 = D1 / PASS1, R2 = D2 / PASS2;
  static_assert(PASS1 <= D1 && PASS2 <= D2, "axes 1 and 2 must not repeat across threads");

  // What this layout holds: the repeats of its kept axes (and the runs, when axis 2 is kept).
  static constexpr bool K0 = AXES & 1, K1 = (AXES >> 1) & 1, K2 = (AXES >> 2) & 1;
  static constexpr int VEC = K2 ? RUN : 1;
  static constexpr int N0 = K0 ? R0 : 1, N1 = K1 ? R1 : 1, N2 = K2 ? R2 : 1;
  static constexpr int ELEMS = N0 * N1 * N2 * VEC;
  static constexpr int TILE_SIZE = (K0 ? D0 : 1) * (K1 ? D1 : 1) * (K2 ? D2 : 1);

  __device__ static constexpr int t0(int tid) {
    return (tid % 32) / (TW2 * TW1) + (tid / 32) / (W2 * W1) * TW0;
  }
  __device__ static constexpr int t1(int tid) {
    return (tid % 32) / TW2 % TW1 + (tid / 32) / W2 % W1 * TW1;
  }
  __device__ static constexpr int t2(int tid) { return (tid % 32) % TW2 + (tid / 32) % W2 * TW2; }

  /// The coordinate along axis `a` (0, 1 or 2, a kept one) of element j of thread `tid`.
  __device__ static constexpr int axis_coord(int tid, int j, int a) {
    if (a == 2)
      return (j / VEC) % N2 * PASS2 + t2(tid) * VEC + j % VEC;
    if (a == 1)
      return (j / (VEC * N2)) % N1 * PASS1 + t1(tid);
    const int c = j / (VEC * N2 * N1) * PASS0 + t0(tid);
    return REPLICATED ? (c & (D0 - 1)) : c;
  }
  /// Row-major position of (c0, c1, c2) in the tile of the kept axes (the others ignored).
  __host__ __device__ static constexpr int linear_of(int c0, int c1, int c2) {
    return ((K0 ? c0 : 0) * (K1 ? D1 : 1) + (K1 ? c1 : 0)) * (K2 ? D2 : 1) + (K2 ? c2 : 0);
  }
  __device__ static constexpr int linear(int tid, int j) {
    return linear_of(axis_coord(tid, j, 0), axis_coord(tid, j, 1), axis_coord(tid, j, 2));
  }
  /// With one kept axis: its coordinate (as Blocked1D::coord, for arange and conversions).
  __device__ static constexpr int coord(int tid, int j) { return linear(tid, j); }
  /// One thread per element: not the copies of a replicated axis 0, and along a dropped axis
  /// only the first thread.
  __device__ static constexpr bool owner(int tid) {
    return (K0 ? t0(tid) < D0 : t0(tid) == 0) && (K1 || t1(tid) == 0) && (K2 || t2(tid) == 0);
  }
};

template <int D0, int D1, int D2, int THREADS, int MAX_VEC>
using Blocked3D = Blocked3DAxes<D0, D1, D2, THREADS, MAX_VEC, 7>;

/// The element of layout S that element i of layout P stands for, S and P holding axes of
/// the same Blocked3D (S's a subset of P's): P's repeats (and runs) of the axes S keeps,
/// renumbered without the others.
template <class S, class P> __device__ constexpr int slice_index(int i) {
  const int v = i % P::VEC, r2 = i / P::VEC % P::N2, r1 = i / (P::VEC * P::N2) % P::N1,
            r0 = i / (P::VEC * P::N2 * P::N1);
  return (((S::K0 ? r0 : 0) * S::N1 + (S::K1 ? r1 : 0)) * S::N2 + (S::K2 ? r2 : 0)) * S::VEC +
         (S::K2 ? v : 0);
}

namespace detail {
/// P (a Blocked3DAxes or a slice of one) without its DIM-th kept axis.
template <class P, int DIM> struct Slice3 : P::template WithAxes<drop_kept_axis(P::KEPT, DIM)> {
  using Parent = P;
  using Kept = typename P::template WithAxes<drop_kept_axis(P::KEPT, DIM)>;
  __device__ static constexpr int from_parent(int i) { return slice_index<Kept, P>(i); }
};
} // namespace detail

template <int D0, int D1, int D2, int T, int V, int M>
struct Slice<Blocked3DAxes<D0, D1, D2, T, V, M>, 0>
    : detail::Slice3<Blocked3DAxes<D0, D1, D2, T, V, M>, 0> {};
template <int D0, int D1, int D2, int T, int V, int M>
struct Slice<Blocked3DAxes<D0, D1, D2, T, V, M>, 1>
    : detail::Slice3<Blocked3DAxes<D0, D1, D2, T, V, M>, 1> {};
template <int D0, int D1, int D2, int T, int V, int M>
struct Slice<Blocked3DAxes<D0, D1, D2, T, V, M>, 2>
    : detail::Slice3<Blocked3DAxes<D0, D1, D2, T, V, M>, 2> {};
// Slices of slices (only those of Blocked3D layouts exist).
template <class P, int D> struct Slice<Slice<P, D>, 0> : detail::Slice3<Slice<P, D>, 0> {};
template <class P, int D> struct Slice<Slice<P, D>, 1> : detail::Slice3<Slice<P, D>, 1> {};

/// True for Blocked3D layouts and their slices (they have LINEAR).
template <class L> struct is_linear_layout {
  template <class U> __host__ __device__ static constexpr bool test(decltype(U::LINEAR) *) {
    return true;
  }
  template <class U> __host__ __device__ static constexpr bool test(...) { return false; }
  static constexpr bool value = test<L>(nullptr);
};

} // namespace tilec
