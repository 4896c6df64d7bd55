// tilec/tl/sort.h - tiles sorted along one axis: tl::sort and tl::topk.
//
//   tl::sort(t)                  the last axis ascending (Triton's tl.sort(x))
//   tl::sort<AXIS>(t)            axis AXIS ascending (tl.sort(x, dim=AXIS))
//   tl::sort<AXIS, true>(t)      descending (tl.sort(x, dim=AXIS, descending=True))
//   tl::topk<K>(t)               the K largest along the last axis, largest first
//                                (tl.topk(x, K)); the axis becomes K long
//   tl::topk<K, AXIS>(t)         along axis AXIS (tl.topk(x, K, dim=AXIS))
//
// Elements move and never change; the order is total, so every sort of the same tile gives
// the same bits: integers by value; floats by value with -0.0 before +0.0, NaNs with the sign
// bit clear after +inf and those with it set before -inf (the order of their bit patterns as
// sign and magnitude). Tiles of float, double, half, bfloat16, integers or bool. K is a power of
// two no larger than the axis.
#pragma once

#include <tilec/tl/shape.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace tl {
namespace detail {

/// The unsigned key whose order is the sort's order for elements of type T.
template <class T> constexpr auto sort_key(T x) {
  static_assert(is_elem_v<T> && !is_fp8_v<T>,
                "tl::sort / tl::topk take tiles of float, double, half, bfloat16, integers or bool");
  if constexpr (std::is_same_v<T, bool>)
    return uint64_t(x);
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
    return uint64_t(int64_t(x)) ^ (uint64_t(1) << 63);
  else if constexpr (std::is_integral_v<T>)
    return uint64_t(x);
  else {
    // Sign and magnitude to an unsigned order: negatives reversed below the positives.
    uint64_t bits, sign;
    if constexpr (is_half_like_v<T>)
      bits = x.bits, sign = uint64_t(1) << 15;
    else if constexpr (sizeof(T) == 4)
      bits = std::bit_cast<uint32_t>(x), sign = uint64_t(1) << 31;
    else
      bits = std::bit_cast<uint64_t>(x), sign = uint64_t(1) << 63;
    const uint64_t mask = sign | (sign - 1);
    return (bits & sign) ? (~bits & mask) : (bits | sign);
  }
}

/// Shape S with axis A set to N.
template <class S, int A, int N> struct set_axis {
  static constexpr std::array<int, S::rank> arr = [] {
    std::array<int, S::rank> r{};
    for (int i = 0; i < S::rank; ++i)
      r[i] = i == A ? N : S::value[i];
    return r;
  }();
  using type = dims_of_t<arr>;
};

/// Each line of `t` along axis a (n long, `inner` apart) sorted, its first m elements written
/// to the same line of r (m long).
template <class T, class R>
void sort_lines(const T *t, int size, int n, int m, int inner, bool descending, R *r) {
  std::vector<T> line(size_t(n), T{});
  for (int start = 0; start < size; ++start) {
    if (start / inner % n != 0)
      continue; // not the first element of a line
    for (int k = 0; k < n; ++k)
      line[size_t(k)] = t[start + k * inner];
    std::sort(line.begin(), line.end(), [&](const T &x, const T &y) {
      return descending ? sort_key(y) < sort_key(x) : sort_key(x) < sort_key(y);
    });
    const int out = start / (n * inner) * (m * inner) + start % inner;
    for (int k = 0; k < m; ++k)
      r[out + k * inner] = line[size_t(k)];
  }
}

template <class T, class S> struct tile_of_dims;
template <class T, int... D> struct tile_of_dims<T, dims<D...>> {
  using type = tile<T, D...>;
};

} // namespace detail

/// t with every line along axis AXIS (the last by default) sorted, ascending unless DESCENDING.
template <int AXIS = -1, bool DESCENDING = false, class T, int D0, int... Ds>
tile<T, D0, Ds...> sort(const tile<T, D0, Ds...> &t) {
  using S = detail::dims<D0, Ds...>;
  constexpr int a = detail::norm_axis<AXIS, S::rank>();
  constexpr int n = S::value[a], inner = detail::dims_product<S>(a + 1, S::rank);
  tile<T, D0, Ds...> r;
  detail::sort_lines<T>(t.elems, S::size, n, n, inner, DESCENDING, r.elems);
  return r;
}

/// The K largest elements of every line along axis AXIS (the last by default), largest first;
/// the result has t's shape with that axis K long.
template <int K, int AXIS = -1, class T, int D0, int... Ds>
auto topk(const tile<T, D0, Ds...> &t) {
  using S = detail::dims<D0, Ds...>;
  constexpr int a = detail::norm_axis<AXIS, S::rank>();
  constexpr int n = S::value[a], inner = detail::dims_product<S>(a + 1, S::rank);
  static_assert(detail::is_pow2(K) && K <= n,
                "tl::topk<K>: K is a power of two no larger than the axis");
  using R = typename detail::tile_of_dims<T, typename detail::set_axis<S, a, K>::type>::type;
  R r;
  detail::sort_lines<T>(t.elems, S::size, n, K, inner, true, r.elems);
  return r;
}

} // namespace tl
