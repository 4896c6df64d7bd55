// tilec/tl/range.h - loops: tl::range (pipelined by num_stages on the GPU) and
// tl::static_range (unrolled on the GPU). On the host both are plain counted loops.
#pragma once

#include <type_traits>

namespace tl {
namespace detail {

/// Counts from start toward end by step (step may be negative), Python's range.
template <class I> struct counted_range {
  struct sentinel {};
  struct iterator {
    I i, end, step;
    I operator*() const { return i; }
    iterator &operator++() {
      i += step;
      return *this;
    }
    bool operator!=(sentinel) const { return step > 0 ? i < end : i > end; }
  };
  I start, stop, step;
  iterator begin() const { return {start, stop, step}; }
  sentinel end() const { return {}; }
};

} // namespace detail

/// Triton's keyword arguments of tl.range, as a last argument:
///   for (int k : tl::range(0, K, BLOCK_K, {.warp_specialize = true, .num_stages = 4}))
/// They say how the GPU code runs the loop, not what it computes: the interpreter ignores them.
///   warp_specialize            false: no producer warpgroup for this loop (true: the default,
///                              where the loop qualifies; warp-specialize)
///   num_stages                 stages of the loop's pipeline, in place of the launch's
///                              num_stages (0: the launch's); one value per kernel
///   loop_unroll_factor         the CUDA compiler unrolls the loop this many times (0: its
///                              choice); not for pipelined loops, which stay rolled
///   disallow_acc_multi_buffer  accepted; no effect (tilec never multi-buffers accumulators)
///   flatten                    accepted; no effect (nested loops are not flattened)
/// Designated initializers follow this order.
struct range_options {
  bool warp_specialize = true;
  int num_stages = 0;
  int loop_unroll_factor = 0;
  bool disallow_acc_multi_buffer = false;
  bool flatten = false;
};

/// for (int k : tl::range(0, K, BLOCK_K)) ... ; the index type is the common type.
template <class A, class B, class S = int>
  requires std::is_integral_v<A> && std::is_integral_v<B> && std::is_integral_v<S>
auto range(A start, B end, S step = 1) {
  using I = std::common_type_t<A, B, S>;
  return detail::counted_range<I>{I(start), I(end), I(step)};
}

/// for (int i : tl::range(n)): 0, 1, ..., n-1.
template <class B>
  requires std::is_integral_v<B>
auto range(B end) {
  return detail::counted_range<B>{B(0), end, B(1)};
}

/// The same loops with Triton's loop options (range_options).
template <class A, class B, class S>
  requires std::is_integral_v<A> && std::is_integral_v<B> && std::is_integral_v<S>
auto range(A start, B end, S step, range_options) {
  return range(start, end, step);
}
template <class A, class B>
  requires std::is_integral_v<A> && std::is_integral_v<B>
auto range(A start, B end, range_options) {
  return range(start, end);
}
template <class B>
  requires std::is_integral_v<B>
auto range(B end, range_options) {
  return range(end);
}

/// for (int i : tl::static_range<0, 4>()): bounds known at compile time (unrolled on the GPU).
template <int START, int END, int STEP = 1> struct static_range {
  static_assert(STEP != 0, "tl::static_range: STEP must not be 0");
  detail::counted_range<int>::iterator begin() const { return {START, END, STEP}; }
  detail::counted_range<int>::sentinel end() const { return {}; }
};

} // namespace tl
