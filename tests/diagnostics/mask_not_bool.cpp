// A load's or store's mask is bool: a number used as a mask (a typo such as `offs << n` for
// `offs < n`) is a located error that says how to write a test against zero.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void load_mask(const float* x, float* out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs << n));
  // CHECK: mask_not_bool.cpp:[[@LINE-1]]:44: error: the mask must be bool (a comparison); write `m != 0` for a number
}

template <int BLOCK>
TILEC_KERNEL void store_tile_mask(const float* x, float* out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs), offs << n);
  // CHECK: mask_not_bool.cpp:[[@LINE-1]]:45: error: the mask must be bool (a comparison); write `m != 0` for a number
}

template <int BLOCK>
TILEC_KERNEL void store_scalar_mask(const float* x, float* out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs), n);
  // CHECK: mask_not_bool.cpp:[[@LINE-1]]:45: error: the mask must be bool (a comparison); write `m != 0` for a number
}
// CHECK: 3 errors generated.
