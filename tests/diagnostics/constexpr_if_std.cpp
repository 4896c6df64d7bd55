// An `if constexpr` condition is kept in the generated kernel, which has no standard library:
// std::is_same_v is translated, other std names are a located error saying what to use.
#include <tilec/tl.h>

#include <type_traits>

template <class T, int BLOCK>
TILEC_KERNEL void twice(const T *x, float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::cast<float>(tl::load(x + offs, offs < n));
  if constexpr (std::is_floating_point_v<T>)
    v = v * 2.0f;
  tl::store(out + offs, v, offs < n);
}

// CHECK: constexpr_if_std.cpp:[[@LINE-5]]:17: error: an 'if constexpr' condition is kept in the generated kernel, which has no standard library: compare types with std::is_same_v, or pass a bool template parameter
