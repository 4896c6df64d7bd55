// EXPECT: accepted
#include <tilec/tl.h>
// Without --aot or configs --check compiles int parameters at 16: a rank-3 tile of
// [256, 256, 256] would have 16M elements and a reduction buffer far over shared memory.
template <int A, int B, int C>
TILEC_KERNEL void cube_sums(const float *x, float *out) {
  auto i = tl::expand_dims<2>(tl::expand_dims<1>(tl::arange<0, A>()));
  auto j = tl::expand_dims<2>(tl::expand_dims<0>(tl::arange<0, B>()));
  auto k = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, C>()));
  auto t = tl::load(x + (i * B + j) * C + k);
  auto s = tl::sum<2>(t);
  tl::store(out + tl::expand_dims<1>(tl::arange<0, A>()) * B + tl::expand_dims<0>(tl::arange<0, B>()), s);
}
