// tilec/tl/histogram.h - tl::histogram: how many elements of a tile take each value.
//
//   tl::histogram<NUM_BINS>(x)        Triton's tl.histogram(x, NUM_BINS)
//   tl::histogram<NUM_BINS>(x, mask)  tl.histogram(x, NUM_BINS, mask=mask): lanes where the
//                                     mask (a bool tile of x's shape, or a scalar) is false
//                                     are not counted
//
// x is a rank-1 tile of integers (bool too, Triton's int1). The result is a
// tile<int32_t, NUM_BINS>: bin b counts the elements equal to b (bins of width 1 from 0).
// Values outside [0, NUM_BINS) fall in no bin, as on Triton's GPU path. NUM_BINS is a tile
// dimension, hence a power of two.
#pragma once

#include <tilec/tl/tile.h>

namespace tl {

template <int NUM_BINS, class T, int... D, class M = bool>
tile<int32_t, NUM_BINS> histogram(const tile<T, D...> &x, const M &mask = true) {
  static_assert(sizeof...(D) == 1, "tl::histogram takes a rank-1 tile");
  static_assert(detail::is_int_elem_v<T>, "tl::histogram counts integers: cast the tile first");
  using S = detail::dims<D...>;
  static_assert(std::is_same_v<detail::elem_t<M>, bool>,
                "tl::histogram: the mask must be bool (a comparison)");
  static_assert(detail::shapes_compatible_v<M, tile<T, D...>> &&
                    std::is_same_v<detail::result_shape_t<M, tile<T, D...>>, S>,
                "tl::histogram: the mask must have the input's shape");
  tile<int32_t, NUM_BINS> r;
  for (int i = 0; i < S::size; ++i) {
    const T v = x.elems[i];
    bool in_range;
    if constexpr (std::is_signed_v<T>)
      in_range = v >= 0 && static_cast<long long>(v) < NUM_BINS;
    else
      in_range = static_cast<unsigned long long>(v) < NUM_BINS;
    if (in_range && detail::element_at<S>(mask, i))
      ++r.elems[static_cast<int>(v)];
  }
  return r;
}

} // namespace tl
