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

/// for (int i : tl::static_range<0, 4>()): bounds known at compile time (unrolled on the GPU).
template <int START, int END, int STEP = 1> struct static_range {
  static_assert(STEP != 0, "tl::static_range: STEP must not be 0");
  detail::counted_range<int>::iterator begin() const { return {START, END, STEP}; }
  detail::counted_range<int>::sentinel end() const { return {}; }
};

} // namespace tl
