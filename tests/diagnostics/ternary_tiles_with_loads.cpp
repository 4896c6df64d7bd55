// `?:` on tiles computes both arms on the GPU: an arm that loads (here through a bias pointer
// that may be null when HAS_BIAS is false) is refused with the fix, not run unconditionally.
#include <tilec/tl.h>

template <int BLOCK, bool HAS_BIAS>
TILEC_KERNEL void k(const float* x, const float* bias, float* out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n, 0.0f);
  auto b = HAS_BIAS ? tl::load(bias + offs, offs < n, 0.0f) : tl::zeros<float, BLOCK>();
  // CHECK: ternary_tiles_with_loads.cpp:[[@LINE-1]]:12: error: '?:' on tiles computes both sides on the GPU, and this one reads or writes memory; assign a variable in an if/else (or if constexpr) instead
  tl::store(out + offs, v + b, offs < n);
}
// CHECK: 1 error generated.
