// tilec/tl/descriptor.h - tensor descriptors (Triton's tl.make_tensor_descriptor).
//
// A descriptor names a tensor in global memory (base, shape, strides in elements) and reads
// and writes it one [BLOCK...] box at a time:
//
//   auto a_desc = tl::make_tensor_descriptor<BLOCK_M, BLOCK_K>(a, {M, K}, {stride_am, 1});
//   auto a = a_desc.load({m0, k0});   // tile<T, BLOCK_M, BLOCK_K>
//   c_desc.store({m0, n0}, c);
//
// Elements of a box outside the tensor (past the shape, or before 0) read as zero and are
// not stored, so boxes need no masks. The last dimension must be contiguous (stride 1), as
// the copy engine on Hopper requires; the translator checks that it is the literal 1. The box
// shape is the template arguments: tiles have a compile-time shape.
#pragma once

#include <tilec/tl/memory.h>

#include <array>
#include <cstdint>

namespace tl {

namespace detail {

/// Each element's address in the [BLOCK...] box at `offsets` of the [shape] tensor at `base`
/// (row-major box order), and whether it lies inside the tensor along the dimensions marked
/// in `checked` (descriptors check them all, block pointers those of their boundary check).
template <class T, int... BLOCK>
void box_address(T *base, const std::array<int64_t, sizeof...(BLOCK)> &shape,
                 const std::array<int64_t, sizeof...(BLOCK)> &strides,
                 const std::array<int64_t, sizeof...(BLOCK)> &offsets,
                 const std::array<bool, sizeof...(BLOCK)> &checked, tile<T *, BLOCK...> &ptrs,
                 tile<bool, BLOCK...> &inside) {
  constexpr int rank = sizeof...(BLOCK);
  constexpr int dims[] = {BLOCK...};
  for (int i = 0; i < tile<T *, BLOCK...>::numel; ++i) {
    int rest = i;
    int64_t off = 0;
    bool in = true;
    for (int d = rank - 1; d >= 0; --d) {
      const int64_t at = offsets[size_t(d)] + rest % dims[d];
      rest /= dims[d];
      if (checked[size_t(d)])
        in = in && at >= 0 && at < shape[size_t(d)];
      off += at * strides[size_t(d)];
    }
    ptrs.elems[i] = ptr_add(base, off);
    inside.elems[i] = in;
  }
}

} // namespace detail

template <class T, int... BLOCK> struct tensor_descriptor {
  static constexpr int rank = sizeof...(BLOCK);
  static_assert(rank >= 1 && rank <= 3, "tensor descriptors have rank 1 to 3, as tiles");
  using value_type = std::remove_cv_t<T>;
  using box = tile<value_type, BLOCK...>;

  T *base;
  std::array<int64_t, rank> shape, strides;

  /// The box at `offsets`; elements outside the tensor are zero.
  box load(const std::array<int64_t, rank> &offsets,
           std::source_location loc = std::source_location::current()) const {
    tile<T *, BLOCK...> ptrs;
    tile<bool, BLOCK...> inside;
    address(offsets, ptrs, inside);
    return tl::load(ptrs, inside, value_type(0), loc);
  }

  /// Stores `value` (a box-shaped tile, or a scalar) at `offsets`, inside the tensor only.
  template <class V>
  void store(const std::array<int64_t, rank> &offsets, const V &value,
             std::source_location loc = std::source_location::current()) const {
    static_assert(!std::is_const_v<T>, "storing through a descriptor of a pointer to const");
    tile<T *, BLOCK...> ptrs;
    tile<bool, BLOCK...> inside;
    address(offsets, ptrs, inside);
    tl::store(ptrs, value, inside, loc);
  }

private:
  void address(const std::array<int64_t, rank> &offsets, tile<T *, BLOCK...> &ptrs,
               tile<bool, BLOCK...> &inside) const {
    std::array<bool, rank> every;
    every.fill(true);
    detail::box_address<T, BLOCK...>(base, shape, strides, offsets, every, ptrs, inside);
  }
};

/// A descriptor of the [shape] tensor at `base` with `strides` (in elements, the last 1), read
/// and written in [BLOCK...] boxes.
template <int... BLOCK, class T>
tensor_descriptor<T, BLOCK...> make_tensor_descriptor(
    T *base, const std::array<int64_t, sizeof...(BLOCK)> &shape,
    const std::array<int64_t, sizeof...(BLOCK)> &strides) {
  return {base, shape, strides};
}

} // namespace tl
