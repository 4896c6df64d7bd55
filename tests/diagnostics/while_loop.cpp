// while loops are not translated (for loops are): a located error, not wrong code.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(float* out, int n) {
  int i = 0;
  while (i < n)
    i = i + 1;
  // CHECK: while_loop.cpp:[[@LINE-2]]:3: error: while loops are not supported by the translator yet; use a for loop
  // The caret and the range, as clang prints them.
  // CHECK-NEXT: [[@LINE-4]] |   while (i < n)
  // CHECK-NEXT: {{^ +}}|   ^~~~~~~~~~~~~{{$}}
  tl::store(out + tl::arange<0, BLOCK>(), 1.0f);
}
// CHECK: 1 error generated.
