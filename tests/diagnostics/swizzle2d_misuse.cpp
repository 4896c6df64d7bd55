// tl::swizzle2d takes five integer scalars and returns a pair, taken apart with a structured
// binding or read as .first / .second. Dependent calls are not checked by clang: the
// translator does it, and names whose initializer was reported are not reported again.
#include <tilec/tl.h>

template <class T, int G>
TILEC_KERNEL void k(int *out, T size, int n) {
  int pid = tl::program_id(0);
  auto [a, b] = tl::swizzle2d(pid, 0, size, n);
  // CHECK: swizzle2d_misuse.cpp:[[@LINE-1]]:17: error: tl::swizzle2d takes 5 arguments, 4 given
  auto [c, d] = tl::swizzle2d(tl::arange<0, G>(), 0, size, n, G);
  // CHECK: swizzle2d_misuse.cpp:[[@LINE-1]]:31: error: tl::swizzle2d takes integer scalars (program indices and grid sizes)
  auto p = tl::swizzle2d(pid, 0, size, n, 2.0f);
  // CHECK: swizzle2d_misuse.cpp:[[@LINE-1]]:43: error: tl::swizzle2d takes integer scalars (program indices and grid sizes)
  tl::store(out + pid, a + b + c + d + p.first);
  int q = tl::swizzle2d(pid, 0, size, n, G) + 1;
  // CHECK: swizzle2d_misuse.cpp:[[@LINE-1]]:11: error: tl::swizzle2d returns two values: take them apart with `auto [i, j] = tl::swizzle2d(...)` or .first/.second
  auto s = tl::swizzle2d(pid, 0, size, n, G);
  tl::store(out + pid, s);
  // CHECK: swizzle2d_misuse.cpp:[[@LINE-1]]:24: error: 's' holds two values: use s.first and s.second
  tl::store(out + pid, s.third);
  // CHECK: swizzle2d_misuse.cpp:[[@LINE-1]]:24: error: a pair has the members .first and .second
  auto [x, y, z] = tl::swizzle2d(pid, 0, size, n, G);
  // CHECK: swizzle2d_misuse.cpp:[[@LINE-1]]:8: error: a pair takes apart into 2 names, not 3
  tl::store(out + pid, q + x + y + z);
}
// CHECK-NOT: error:
// CHECK: 7 errors generated.
