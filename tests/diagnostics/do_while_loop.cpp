// do-while loops are not translated (for and while loops are): a located error, not wrong code.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(float* out, int n) {
  int i = 0;
  do
    i = i + 1;
  while (i < n);
  // CHECK: do_while_loop.cpp:[[@LINE-3]]:3: error: do-while loops are not supported by the translator yet; use while or for
  // The caret and the range, as clang prints them.
  // CHECK-NEXT: [[@LINE-5]] |   do
  // CHECK-NEXT: {{^ +}}|   ^~{{$}}
  tl::store(out + tl::arange<0, BLOCK>(), 1.0f);
}
// CHECK: 1 error generated.
