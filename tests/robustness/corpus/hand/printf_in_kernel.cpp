// EXPECT: error printf_in_kernel.cpp:6:
#include <tilec/tl.h>
#include <cstdio>
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  std::printf("%d\n", n);
}
