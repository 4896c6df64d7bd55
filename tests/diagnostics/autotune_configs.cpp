// A TILEC_AUTOTUNE declaration's configs must set template parameters of the kernel, the same
// ones in every config, with valid num_warps and num_stages.
#include <tilec/tl.h>

template <class T, int BLOCK, bool EVEN>
TILEC_KERNEL void scale(const T *x, T *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}

TILEC_AUTOTUNE(scale) = {
    .configs = {{.values = {{"BLOCK", 256}, {"BLOKC", 2}, {"T", 1}, {"EVEN", 2}}, .num_warps = 3},
                {.values = {{"BLOCK", 512}, {"BLOCK", 1024}}, .num_stages = 0},
                {.values = {{"EVEN", 1}}}},
    .key = {"n"},
};

// CHECK: autotune_configs.cpp:[[@LINE-6]]:46: error: 'BLOKC' is not a template parameter of scale
// CHECK: autotune_configs.cpp:[[@LINE-7]]:60: error: 'T' is a type parameter of scale; configs set integer and bool parameters (types come from the call)
// CHECK: autotune_configs.cpp:[[@LINE-8]]:70: error: 'EVEN' is a bool; its value must be true or false
// CHECK: autotune_configs.cpp:[[@LINE-9]]:17: error: num_warps must be a power of two from 1 to 32, not 3
// CHECK: autotune_configs.cpp:[[@LINE-9]]:46: error: 'BLOCK' is set twice in this config
// CHECK: autotune_configs.cpp:[[@LINE-10]]:17: error: num_stages must be at least 1, not 0
// CHECK: autotune_configs.cpp:[[@LINE-11]]:17: error: this config does not set 'EVEN', which the first config sets; every config sets the same template parameters
// CHECK: autotune_configs.cpp:[[@LINE-11]]:17: error: this config does not set 'BLOCK', which the first config sets; every config sets the same template parameters
