// tl::device_print and tl::device_assert take their message as a string literal; an
// assertion takes a condition and a message.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void k(const float* x, int n) {
  auto v = tl::load(x + tl::arange<0, B>());
  tl::device_print(n > 0 ? "positive" : "other", v);
  // CHECK: debug_misuse.cpp:[[@LINE-1]]:20: error: tl::device_print needs its message as a string literal
  tl::device_assert(v > 0);
  // CHECK: debug_misuse.cpp:[[@LINE-1]]:3: error: tl::device_assert takes 2 arguments, 1 given
  tl::device_assert(x + tl::arange<0, B>(), "not null");
  // CHECK: debug_misuse.cpp:[[@LINE-1]]:21: error: tl::device_assert needs a condition (a comparison), not a pointer
  tl::device_assert(v > 0, n);
  // CHECK: debug_misuse.cpp:[[@LINE-1]]:28: error: tl::device_assert needs its message as a string literal
}
// CHECK: 4 errors generated.
