// A statement the translator has no translation for is named in the error.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(float* out, int n) {
  switch (n) {
  default:
    break;
  }
  // CHECK: switch_statement.cpp:[[@LINE-4]]:3: error: switch statements are not supported in kernels; use if / else if
  tl::store(out + tl::arange<0, BLOCK>(), 1.0f);
}
// CHECK: 1 error generated.
