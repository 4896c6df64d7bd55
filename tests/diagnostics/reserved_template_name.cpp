// A template parameter named like a variable of the generated code is rejected.
#include <tilec/tl.h>

template <int i>
TILEC_KERNEL void k(float* out) {
  tl::store(out, float(i));
}

// CHECK: reserved_template_name.cpp:[[@LINE-5]]:15: error: template parameter name 'i' is used by the generated code; rename it
