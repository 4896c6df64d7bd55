// TILEC_AUTOTUNE names a kernel of the same file and is initialized with a braced list.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void scale(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}

TILEC_AUTOTUNE(scael) = {.configs = {{.values = {{"BLOCK", 256}}}}};

template <int BLOCK>
TILEC_KERNEL void copy(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}

constexpr tl::autotune one_config() { return {}; }
TILEC_AUTOTUNE(copy) = one_config();

// CHECK: autotune_declaration.cpp:[[@LINE-11]]:1: error: TILEC_AUTOTUNE(scael): no TILEC_KERNEL named 'scael' in this file
// CHECK: autotune_declaration.cpp:[[@LINE-3]]:1: error: expected TILEC_AUTOTUNE(kernel) = {.configs = ..., .key = ...}
