// C++ errors are clang's own, and nothing is translated.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(float* out) {
  auto offs = tl::arange<0, BLOCK>()
  tl::store(out + offs, 1.0f);
}
// CHECK: syntax_error.cpp:6:37: error: expected ';' at end of declaration
// CHECK: 1 error generated.
