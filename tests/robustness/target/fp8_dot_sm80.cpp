// With --arch=sm_80, an fp8 tl::dot of known operand types is a located error at translation
// (it used to be accepted, then refused by NVRTC inside the device library).
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void fp8_dot(const tl::float8_e4m3 *a, float *c) {
  auto r = tl::arange<0, 32>();
  auto x = tl::load(a + tl::expand_dims<1>(r) * 32 + tl::expand_dims<0>(r));
  tl::store(c + tl::expand_dims<1>(r) * 32 + tl::expand_dims<0>(r), tl::dot(x, x));
}
// CHECK: fp8_dot_sm80.cpp:9:69: error: tl::dot of fp8 operands (tl::float8_e4m3, tl::float8_e5m2) needs sm_89 or newer (mma.sync has no fp8 operands before), and --arch=sm_80 includes older GPUs: translate with --arch=sm_89 or newer, or cast the operands to tl::half
// CHECK-NOT: error:
// CHECK: 1 error generated.
