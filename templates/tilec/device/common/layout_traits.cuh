// layout_traits.cuh: the parameters of a layout type, for the block-wide operations
// (reductions, scans) that take the layout as a template argument.
//
// GROUP is the number of consecutive threads that together hold the whole tile exactly once:
// all THREADS unless the layout is replicated, else SIZE / VEC (VEC is 1 there). The threads of
// a block form THREADS / GROUP aligned groups, each holding its own copy of the tile.
#pragma once

#include <tilec/device/common/layout.cuh>

namespace tilec {

/// True for tilec::Blocked1D<...>; the primary template is for every other type.
template <class L> struct Blocked1DInfo {
  static constexpr bool IS_BLOCKED1D = false;
};

template <int SIZE_, int THREADS_, int MAX_VEC_>
struct Blocked1DInfo<Blocked1D<SIZE_, THREADS_, MAX_VEC_>> {
  using L = Blocked1D<SIZE_, THREADS_, MAX_VEC_>;
  static constexpr bool IS_BLOCKED1D = true;
  static constexpr int SIZE = SIZE_;
  static constexpr int THREADS = THREADS_;
  static constexpr int GROUP = L::REPLICATED ? SIZE_ / L::VEC : THREADS_;
};

} // namespace tilec
