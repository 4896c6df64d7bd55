// tilec/tl/creation.h - tiles made from nothing: arange, zeros, full and the *_like forms.
#pragma once

#include <tilec/tl/tile.h>

namespace tl {

/// START, START+1, ..., END-1 as a tile<int32_t, END - START>.
template <int START, int END> tile<int32_t, END - START> arange() {
  static_assert(END > START, "tl::arange<START, END> needs END > START");
  static_assert(detail::is_pow2(END - START),
                "tl::arange<START, END>: END - START must be a power of two");
  tile<int32_t, END - START> t;
  for (int i = 0; i < END - START; ++i)
    t.elems[i] = START + i;
  return t;
}

/// A tile of shape D... filled with v (converted to T).
template <class T, int D0, int... Ds, class V> tile<T, D0, Ds...> full(const V &v) {
  tile<T, D0, Ds...> t;
  const T x = detail::convert<T>(v);
  for (auto &e : t.elems)
    e = x;
  return t;
}

/// A tile of shape D... filled with zeros.
template <class T, int D0, int... Ds> tile<T, D0, Ds...> zeros() { return full<T, D0, Ds...>(0); }

/// A tile with the type and shape of t, filled with v (converted to t's element type).
template <class T, int D0, int... Ds, class V>
tile<T, D0, Ds...> full_like(const tile<T, D0, Ds...> &, const V &v) {
  return full<T, D0, Ds...>(v);
}

/// A tile with the type and shape of t, filled with zeros.
template <class T, int D0, int... Ds> tile<T, D0, Ds...> zeros_like(const tile<T, D0, Ds...> &) {
  return full<T, D0, Ds...>(0);
}

} // namespace tl
