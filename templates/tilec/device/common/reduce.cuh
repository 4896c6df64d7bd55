// reduce.cuh: reductions of a rank-1 tile to one value, returned in every thread of the block.
//
// A tile in layout L (a Blocked1D) is held as v[0 .. L::ELEMS) by each thread. The reduction
// runs in three stages: in-thread over v[], across the lanes of each warp by xor shuffles, and
// across warps through shared memory. Replicated layouts need no identity element: each
// aligned group of GROUP threads holds the whole tile exactly once, so the shuffles stay inside
// a group (lane offsets < min(GROUP, 32)) and only the first group's warps go through shared
// memory.
//
// Every function here must be called by all threads of the block (it may hold __syncthreads),
// with blockDim.x == THREADS of the layout, and `smem` pointing at >= 512 bytes of shared
// memory, 16-byte aligned, reserved by the caller. They end with a barrier when they used
// `smem`, so the next call may reuse it at once.
#pragma once

#include <tilec/device/common/elementwise.cuh>
#include <tilec/device/common/layout_traits.cuh>
#include <tilec/device/common/warp.cuh>

namespace tilec {

/// Bytes of shared memory a caller reserves for one reduction, scan or broadcast.
inline constexpr int REDUCE_SMEM_BYTES = 512;

// ---- combine functors ----------------------------------------------------------------------
// Sums and products of half or bfloat16 use the 16-bit instructions (add.bf16, or fma.rn.bf16
// on sm_80): one instruction where float arithmetic takes two conversions, and the same bits,
// since the float sum or product of two 16-bit values rounds to the correctly rounded 16-bit
// result (the interpreter computes it that way).

struct SumOp {
  template <class T> __device__ T operator()(T a, T b) const {
    return T(a + b); // T(...): int8/int16 operands promote to int
  }
};

struct ProdOp {
  template <class T> __device__ T operator()(T a, T b) const { return T(a * b); }
};

/// Like fmaxf for floats: a NaN operand yields the other.
struct MaxOp {
  template <class T> __device__ T operator()(T a, T b) const { return maximum(a, b); }
};

/// Like fminf for floats: a NaN operand yields the other.
struct MinOp {
  template <class T> __device__ T operator()(T a, T b) const { return minimum(a, b); }
};

struct XorOp {
  template <class T> __device__ T operator()(T a, T b) const {
    static_assert(type_rank<T>::kind == 1 || is_same_v<T, bool>, "xor needs an integer tile");
    return T(a ^ b);
  }
};

namespace detail {

/// Combines `x` over every aligned group of GROUP threads of a THREADS-thread block; every
/// thread gets its group's result, and all groups get the same one (they hold copies, so
/// only the first group's warps write shared memory). `combine(a, b)` gets the operand of
/// the lower threads first, so both lanes of a shuffle compute the same value even when
/// `combine` is not commutative. SYMMETRIC: combine(a, b) and combine(b, a) have the same
/// bits, so each lane combines in its own order with no branch on its lane number. S: at
/// most 16 bytes, (512 / 32) bytes when GROUP > 32.
template <int GROUP, int THREADS, bool SYMMETRIC = false, class S, class Combine>
__device__ inline S group_all_reduce(S x, Combine combine, int tid, unsigned char *smem) {
  static_assert(THREADS % WARP_SIZE == 0, "a block is whole warps");
  static_assert(GROUP > 0 && (GROUP & (GROUP - 1)) == 0 && THREADS % GROUP == 0,
                "groups are aligned powers of two dividing the block");
  constexpr int LANES = GROUP < WARP_SIZE ? GROUP : WARP_SIZE;
  const int lane = tid & (WARP_SIZE - 1);
#pragma unroll
  for (int off = 1; off < LANES; off *= 2) {
    S y = shfl_xor(x, off);
    if constexpr (SYMMETRIC)
      x = S(combine(x, y));
    else
      x = (lane & off) ? S(combine(y, x)) : S(combine(x, y));
  }
  if constexpr (GROUP > WARP_SIZE) {
    constexpr int WARPS = GROUP / WARP_SIZE; // warps per group, at most 32
    static_assert(WARPS * sizeof(S) <= REDUCE_SMEM_BYTES, "one partial per warp fits in smem");
    S *partial = reinterpret_cast<S *>(smem);
    if (tid < GROUP && lane == 0)
      partial[tid / WARP_SIZE] = x;
    __syncthreads();
    // Each warp combines the partials itself: lane l takes partial l mod WARPS, then shuffles.
    x = partial[lane & (WARPS - 1)];
#pragma unroll
    for (int off = 1; off < WARPS; off *= 2) {
      S y = shfl_xor(x, off);
      if constexpr (SYMMETRIC)
        x = S(combine(x, y));
      else
        x = (lane & off) ? S(combine(y, x)) : S(combine(x, y));
    }
    __syncthreads(); // smem is free for the caller's next use
  }
  return x;
}

/// Built-in combines whose operands commute bit for bit on T: sums and products (IEEE
/// addition and multiplication commute), and max / min of integers (of floats, +0 and -0
/// might come out in either order).
template <class Op, class T>
inline constexpr bool symmetric_op_v =
    is_same_v<Op, SumOp> || is_same_v<Op, ProdOp> || is_same_v<Op, XorOp> ||
    ((is_same_v<Op, MaxOp> || is_same_v<Op, MinOp>) && type_rank<T>::kind == 1);

/// Built-in combines that give the same bits run in float on half or bfloat16 values: the
/// max or min of floats converted from 16 bits converts back exactly. (A sum or product keeps
/// rounding each partial result to 16 bits, as Triton's and the interpreter's do.)
template <class Op>
inline constexpr bool exact_in_float_op_v = is_same_v<Op, MaxOp> || is_same_v<Op, MinOp>;

/// A candidate of an arg reduction: its value and tile index.
template <class T> struct ArgCandidate {
  T value;
  int index;
};

/// The type a thread's arg reduction carries values in: float for half and bfloat16 (as `/`
/// computes, quotient_t), each element converted once as it is read rather than the running
/// winner at every comparison. The winner converts back exactly.
template <class T> using arg_value_t = quotient_t<T>;
template <class T> __device__ inline arg_value_t<T> arg_value(T x) {
  if constexpr (is_16bit_float_v<T>)
    return to_float(x);
  else
    return x;
}

template <class T> __device__ inline bool is_nan_value(T x) {
  if constexpr (is_same_v<T, double> || is_same_v<T, float>) {
    return x != x;
  } else if constexpr (is_16bit_float_v<T>) {
    const float f = to_float(x);
    return f != f;
  } else {
    return false;
  }
}

/// The order of arg reductions: NaN first (NAN_WINS) or last, the smallest index among NaNs
/// first; then the larger (IS_MAX) or smaller value, ties broken by the smaller index. Indices
/// are distinct within one copy of the tile, so this picks one winner whatever the order of
/// combination.
template <bool IS_MAX, class T, bool NAN_WINS> struct ArgCombine {
  __device__ ArgCandidate<T> operator()(ArgCandidate<T> a, ArgCandidate<T> b) const {
    // Without branches: selects, not a divergent path per exchange.
    const bool a_nan = is_nan_value(a.value), b_nan = is_nan_value(b.value);
    const auto av = arg_value(a.value), bv = arg_value(b.value);
    const bool first = a.index < b.index;
    const bool better = (IS_MAX ? av > bv : av < bv) || (av == bv && first); // false on NaN
    const bool lone_nan = NAN_WINS ? a_nan : b_nan; // exactly one is NaN: does a win?
    const bool take_a = a_nan == b_nan ? (a_nan ? first : better) : lone_nan;
    return take_a ? a : b;
  }
};

/// ArgCombine's order where `b` is known to come after `a` in the tile (a thread's own elements,
/// visited in increasing index): the later candidate wins only when strictly better, so no
/// index comparison and no branch is needed; two comparisons and two selects per element.
template <bool IS_MAX, class T, bool NAN_WINS> struct ArgCombineLater {
  __device__ ArgCandidate<T> operator()(ArgCandidate<T> a, ArgCandidate<T> b) const {
    const auto av = arg_value(a.value), bv = arg_value(b.value);
    // "not worse" is false when either is NaN: b wins over a NaN a unless NaN wins, and a
    // NaN b wins only when NaN wins and a is not already NaN.
    const bool not_better = IS_MAX ? bv <= av : bv >= av;
    bool take_b;
    if constexpr (NAN_WINS)
      take_b = av == av && !not_better; // a NaN a stays; a NaN b takes a number's place
    else
      take_b = bv == bv && !not_better; // a NaN b never wins; a number beats a NaN a
    return take_b ? b : a;
  }
};

} // namespace detail

/// Reduces the tile held as v[0 .. L::ELEMS) per thread with `op` and returns the result in
/// every thread of the block.
///
/// L: a tilec::Blocked1D. T: the element type (at most 8 bytes); the reduction computes in T
/// (cast to float first for a float accumulator of a half tile; the max and min of half and
/// bfloat16 tiles compute in float, which gives the same bits). Op: `T op(T, T)`,
/// associative and commutative (a functor above or a user lambda); no identity element is
/// needed. Elements are combined in an unspecified order (floats may round differently from a
/// sequential sum), but every thread gets the same bits.
template <class L, class T, class Op>
__device__ inline T reduce_tile(const T *v, Op op, int tid, unsigned char *smem) {
  using Info = Blocked1DInfo<L>;
  static_assert(Info::IS_BLOCKED1D, "reduce_tile takes a tilec::Blocked1D layout");
  static_assert(sizeof(T) <= 8, "reductions take elements of at most 8 bytes");
  if constexpr (is_16bit_float_v<T> && detail::exact_in_float_op_v<Op>) {
    // In float from the first element to the last shuffle: no conversions between the steps.
    float acc = to_float(v[0]);
#pragma unroll
    for (int i = 1; i < L::ELEMS; ++i)
      acc = op(acc, to_float(v[i]));
    auto combine = [&](float a, float b) { return op(a, b); };
    return cast<T>(detail::group_all_reduce<Info::GROUP, Info::THREADS,
                                            detail::symmetric_op_v<Op, float>>(acc, combine, tid,
                                                                               smem));
  } else {
    T acc = v[0];
#pragma unroll
    for (int i = 1; i < L::ELEMS; ++i)
      acc = T(op(acc, v[i]));
    auto combine = [&](T a, T b) { return T(op(a, b)); };
    return detail::group_all_reduce<Info::GROUP, Info::THREADS, detail::symmetric_op_v<Op, T>>(
        acc, combine, tid, smem);
  }
}

/// The tile index (as L::coord numbers it) of the largest (IS_MAX) or smallest element of the
/// tile v[0 .. L::ELEMS), returned in every thread of the block.
///
/// Ties go to the smallest index; -0.0 and +0.0 are equal (a tie). Half and bfloat16 compare
/// as float. NAN_WINS (the default): NaN beats every number for argmax and argmin alike, so a
/// tile holding NaN yields the index of its first NaN (as torch.argmax / torch.argmin).
/// NAN_WINS = false: NaNs lose to every number, so the index is that of the value MaxOp /
/// MinOp return (fmax-like); an all-NaN tile yields index 0.
template <class L, bool IS_MAX, class T, bool NAN_WINS = true>
__device__ inline int arg_reduce_tile(const T *v, int tid, unsigned char *smem) {
  using Info = Blocked1DInfo<L>;
  static_assert(Info::IS_BLOCKED1D, "arg_reduce_tile takes a tilec::Blocked1D layout");
  static_assert(sizeof(T) <= 8, "reductions take elements of at most 8 bytes");
  using V = detail::arg_value_t<T>;
  detail::ArgCombine<IS_MAX, V, NAN_WINS> combine;
  detail::ArgCombineLater<IS_MAX, V, NAN_WINS> later; // coord grows with i
  // The position i stands for the index while the thread combines (an immediate per select).
  detail::ArgCandidate<V> best{detail::arg_value(v[0]), 0};
#pragma unroll
  for (int i = 1; i < L::ELEMS; ++i)
    best = later(best, detail::ArgCandidate<V>{detail::arg_value(v[i]), i});
  best.index = L::coord(tid, best.index);
  return detail::group_all_reduce<Info::GROUP, Info::THREADS>(best, combine, tid, smem).index;
}

} // namespace tilec
