// The key names scalar arguments of the kernel, once each.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void scale(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}

TILEC_AUTOTUNE(scale) = {
    .configs = {{.values = {{"BLOCK", 256}}}, {.values = {{"BLOCK", 512}}}},
    .key = {"N", "x", "n", "n"},
};

// CHECK: autotune_key.cpp:[[@LINE-3]]:13: error: 'N' in the key is not an argument of scale
// CHECK: autotune_key.cpp:[[@LINE-4]]:18: error: 'x' in the key is a pointer; the key names scalar arguments
// CHECK: autotune_key.cpp:[[@LINE-5]]:28: error: 'n' is named twice in the key
