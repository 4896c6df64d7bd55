// EXPECT: error auto_parameter.cpp:5:.*declared 'auto'.*template <class T>
#include <tilec/tl.h>
// Found by the corpus: accepted, then a kernel template parameter spelled 'out:auto'.
template <int BLOCK>
TILEC_KERNEL void k(const int *x, auto *out) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs));
}
