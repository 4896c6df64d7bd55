// Program axes are 0, 1 and 2.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(float* out) {
  int p = tl::program_id(3);
  // CHECK: program_id_axis.cpp:[[@LINE-1]]:26: error: the axis must be the constant 0, 1 or 2
  tl::store(out + tl::arange<0, BLOCK>(), 1.0f);
}
// CHECK: 1 error generated.
