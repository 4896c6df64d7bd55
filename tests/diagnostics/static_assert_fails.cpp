// A kernel's static_assert that fails in a specialization --check compiles is the user's
// error, reported where it is written (not as a failed NVRTC compile of the generated CUDA).
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void copy(const float *x, float *out, int n) {
  static_assert(BLOCK % 64 == 0, "BLOCK must be a multiple of 64");
  // CHECK: static_assert_fails.cpp:[[@LINE-1]]:3: error: BLOCK must be a multiple of 64 (static_assert fails in a specialization --check compiled)
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}
// CHECK-NOT: NVRTC failed
