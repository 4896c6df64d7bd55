// tilec/tl/hints.h - promises that help the GPU code generator (vectorized access,
// fewer bounds checks). On the host they return their operand unchanged.
#pragma once

#include <tilec/tl/tile.h>

#include <stdexcept>

namespace tl {

/// x (an integer, pointer or tile of them) is a multiple of N (pointers: N-byte aligned
/// in elements, as Triton's tl.multiple_of).
template <int N, class X> X multiple_of(const X &x) {
  static_assert(N > 0, "tl::multiple_of<N>: N must be positive");
  return x;
}

/// The first N elements of each group of t are contiguous (Triton's tl.max_contiguous).
template <int N, class X> X max_contiguous(const X &t) {
  static_assert(N > 0, "tl::max_contiguous<N>: N must be positive");
  return t;
}

/// The compiler may assume cond holds. The interpreter checks it, so a wrong promise
/// shows up on the host instead of as wrong code on the GPU.
inline void assume(bool cond) {
  if (!cond)
    throw std::logic_error("tl::assume: the assumed condition is false");
}
template <class T, int D0, int... Ds> void assume(const tile<T, D0, Ds...> &cond) {
  for (const auto &c : cond.elems)
    assume(detail::convert<bool>(c));
}

} // namespace tl
