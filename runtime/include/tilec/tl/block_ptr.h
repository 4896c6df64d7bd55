// tilec/tl/block_ptr.h - block pointers (Triton's tl.make_block_ptr and tl.advance).
//
// A block pointer names a tensor in global memory (base, shape, strides in elements) and one
// [BLOCK...] box of it at `offsets`; tl::advance moves the box, tl::load / tl::store access it:
//
//   auto a_bp = tl::make_block_ptr<BLOCK_M, BLOCK_K>(a, {M, K}, {stride_am, stride_ak},
//                                                    {pid_m * BLOCK_M, 0});
//   for (...) {
//     auto a = tl::load(a_bp, {0, 1});     // rows and columns bounds-checked, zero outside
//     a_bp = tl::advance(a_bp, {0, BLOCK_K});
//   }
//   tl::store(c_bp, c, {0, 1});            // only the elements inside the tensor
//
// The braced list after the pointer is Triton's boundary_check: the dimensions whose bounds
// are checked. Elements outside a checked dimension read as zero and are not stored; an
// unchecked dimension must stay inside the tensor (the interpreter reports an access outside
// any buffer). Strides may be anything, the last one included (a transposed operand). The box
// shape is the template arguments: tiles have a compile-time shape. Triton's `order` may be
// given after the offsets; it must be a permutation of the dimensions and changes nothing, as
// the compiler reads the memory order from the strides.
#pragma once

#include <tilec/tl/descriptor.h> // detail::box_address
#include <tilec/tl/memory.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>

namespace tl {

template <class T, int... BLOCK> struct block_ptr {
  static constexpr int rank = sizeof...(BLOCK);
  static_assert(rank >= 1 && rank <= 3, "block pointers have rank 1 to 3, as tiles");
  using value_type = std::remove_cv_t<T>;
  using box = tile<value_type, BLOCK...>;

  T *base;
  std::array<int64_t, rank> shape, strides, offsets;

  /// Each element's address and whether it lies inside the tensor along the dimensions
  /// in `checked` (row-major box order).
  void address(std::initializer_list<int> checked, tile<T *, BLOCK...> &ptrs,
               tile<bool, BLOCK...> &inside) const {
    std::array<bool, rank> check{};
    for (int d : checked) {
      if (d < 0 || d >= rank)
        throw std::invalid_argument("boundary_check names a dimension the block pointer does "
                                    "not have");
      check[size_t(d)] = true;
    }
    detail::box_address<T, BLOCK...>(base, shape, strides, offsets, check, ptrs, inside);
  }
};

/// A block pointer to the [BLOCK...] box at `offsets` of the [shape] tensor at `base`.
template <int... BLOCK, class T>
block_ptr<T, BLOCK...> make_block_ptr(T *base, const std::array<int64_t, sizeof...(BLOCK)> &shape,
                                      const std::array<int64_t, sizeof...(BLOCK)> &strides,
                                      const std::array<int64_t, sizeof...(BLOCK)> &offsets) {
  return {base, shape, strides, offsets};
}

/// The same, with Triton's `order` (a permutation of the dimensions, fastest first).
template <int... BLOCK, class T>
block_ptr<T, BLOCK...> make_block_ptr(T *base, const std::array<int64_t, sizeof...(BLOCK)> &shape,
                                      const std::array<int64_t, sizeof...(BLOCK)> &strides,
                                      const std::array<int64_t, sizeof...(BLOCK)> &offsets,
                                      const std::array<int, sizeof...(BLOCK)> &order) {
  bool seen[sizeof...(BLOCK)] = {};
  for (int d : order) {
    if (d < 0 || d >= int(sizeof...(BLOCK)) || seen[d])
      throw std::invalid_argument("a block pointer's order is a permutation of its dimensions");
    seen[d] = true;
  }
  return {base, shape, strides, offsets};
}

/// `p` with its box moved by `deltas` elements along each dimension.
template <class T, int... BLOCK>
block_ptr<T, BLOCK...> advance(const block_ptr<T, BLOCK...> &p,
                               const std::array<int64_t, sizeof...(BLOCK)> &deltas) {
  block_ptr<T, BLOCK...> q = p;
  for (size_t d = 0; d < sizeof...(BLOCK); ++d)
    q.offsets[d] += deltas[d];
  return q;
}

/// The box `p` points at; elements outside a dimension of `boundary_check` are zero.
template <class T, int... BLOCK>
tile<std::remove_cv_t<T>, BLOCK...>
load(const block_ptr<T, BLOCK...> &p, std::initializer_list<int> boundary_check = {},
     std::source_location loc = std::source_location::current()) {
  tile<T *, BLOCK...> ptrs;
  tile<bool, BLOCK...> inside;
  p.address(boundary_check, ptrs, inside);
  return tl::load(ptrs, inside, std::remove_cv_t<T>(0), loc);
}

/// Stores `value` (a box-shaped tile, or a scalar) in the box `p` points at, except where a
/// dimension of `boundary_check` leaves the tensor.
template <class T, int... BLOCK, class V>
void store(const block_ptr<T, BLOCK...> &p, const V &value,
           std::initializer_list<int> boundary_check = {},
           std::source_location loc = std::source_location::current()) {
  static_assert(!std::is_const_v<T>, "storing through a block pointer to const");
  tile<T *, BLOCK...> ptrs;
  tile<bool, BLOCK...> inside;
  p.address(boundary_check, ptrs, inside);
  tl::store(ptrs, value, inside, loc);
}

} // namespace tl
