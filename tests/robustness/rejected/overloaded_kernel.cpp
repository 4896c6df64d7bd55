// The runtime finds a kernel by name (`k<256>`), so two kernels cannot share one.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}

template <int BLOCK>
TILEC_KERNEL void k(const int *x, int *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}
// CHECK: overloaded_kernel.cpp:11:19: error: a second TILEC_KERNEL named 'k': kernels are found by name, so they cannot be overloaded; rename one (e.g. k_2)
// CHECK: overloaded_kernel.cpp:5:19: note: the first 'k'
// CHECK-NOT: error
// CHECK: 1 error generated.
