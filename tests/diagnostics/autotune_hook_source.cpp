// Hooks are copied into the launcher header: they may use only their parameters (bound by
// name), the standard library and tilec:: helpers.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void scale(const float *x, float *out, float *sum, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}

constexpr int kLimit = 4096;
int g_threshold = 0;

TILEC_AUTOTUNE(scale) = {
    .configs = {{.values = {{"BLOCK", 256}}}, {.values = {{"BLOCK", 512}}}},
    .prune = [](int BLOCK) { return BLOCK < g_threshold; },
    .reset_to_zero = {{"out", [](int n) { return tl::cdiv(n, 2); }}, {"sum"}},
    .restore_value = {{"sum", [](int) { return 1; }}},
    .heuristics = {{"num_warps", [](int n) { return n > kLimit ? 8 : 4; }}},
};

// CHECK: autotune_hook_source.cpp:[[@LINE-6]]:45: error: a hook is copied into the launcher header and can use only its parameters, the standard library and tilec:: helpers; 'g_threshold' is declared in this file
// CHECK: autotune_hook_source.cpp:[[@LINE-6]]:50: error: 'tl::cdiv' is kernel vocabulary; a hook runs on the host (use tilec::cdiv or tilec::next_power_of_2)
// CHECK: autotune_hook_source.cpp:[[@LINE-7]]:71: error: 'sum' needs its number of elements: {"sum", [](int n) { return n; }}
// CHECK: autotune_hook_source.cpp:[[@LINE-7]]:37: error: every parameter of the count hook needs a name: parameters are bound by name
// CHECK: autotune_hook_source.cpp:[[@LINE-7]]:57: error: a hook is copied into the launcher header and can use only its parameters, the standard library and tilec:: helpers; 'kLimit' is declared in this file
