// An integer template argument of --aot is a decimal literal: the runtime looks specializations
// up by value, and `2*128` would name one it never finds.
#include <tilec/tl.h>

template <class T, int BLOCK>
TILEC_KERNEL void copy_kernel(const T* x, T* out) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs));
}

// CHECK: tilec: error: --aot 'copy_kernel<int,2*128>': template argument '2*128' for BLOCK: write a decimal integer (the runtime names specializations by value)
