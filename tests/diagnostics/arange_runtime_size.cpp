// A run-time value as a tile size: clang reports no matching function; tilec adds what is
// wrong with it and what to write instead.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(int *out, int n) {
  auto offs = tl::arange<0, n>();
  tl::store(out + offs, offs);
}
// CHECK: arange_runtime_size.cpp:7:15: error: no matching function for call to 'arange'
// CHECK: arange_runtime_size.cpp:7:29: error: 'n' is not a compile-time constant: the template arguments of tl::arange (tile sizes, axes) must be known when the kernel is compiled; use a literal, a constexpr value or a template parameter of the kernel (template <int n>), and mask with the run-time value
// CHECK: 2 errors generated.
