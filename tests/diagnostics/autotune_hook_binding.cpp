// Every parameter of a hook is bound by name to something the launcher has when it calls it.
#include <tilec/tl.h>

template <class T, int BLOCK, bool EVEN, int SPLIT>
TILEC_KERNEL void scale(const T *x, T *out, int n) {
  auto offs = tl::program_id(0) * BLOCK * SPLIT + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n && EVEN);
}

TILEC_AUTOTUNE(scale) = {
    .configs = {{.values = {{"BLOCK", 256}}}, {.values = {{"BLOCK", 512}}}},
    .key = {"n"},
    .prune = [](int BLOCK, int size) { return BLOCK < size; },
    .reset_to_zero = {{"out", [](int n, int BLOCK) { return n + BLOCK; }}, {"x", [](int n) { return n; }},
                      {"n", [](int n) { return n; }}},
    .heuristics = {{"EVEN", [](int n, int SPLIT, int T) { return n % SPLIT == T; }},
                   {"SPLIT", [](int n) { return n > 4096 ? 2 : 1; }},
                   {"BLOCK", [](int n) { return n; }},
                   {"WIDTH", [](int n) { return n; }}},
};

// CHECK: autotune_hook_binding.cpp:[[@LINE-4]]:21: error: 'BLOCK' is set by the configs; a heuristic computes a template parameter that they do not set
// CHECK: autotune_hook_binding.cpp:[[@LINE-4]]:21: error: 'WIDTH' is not a template parameter of scale
// CHECK: autotune_hook_binding.cpp:[[@LINE-8]]:43: error: parameter 'SPLIT' of the heuristic is not known yet when the heuristic runs
// CHECK: autotune_hook_binding.cpp:[[@LINE-9]]:54: error: parameter 'T' of the heuristic names a type parameter; hooks take values
// CHECK: autotune_hook_binding.cpp:[[@LINE-13]]:32: error: parameter 'size' of the prune hook names neither an argument nor a template parameter of scale (nor num_warps, num_stages)
// CHECK: autotune_hook_binding.cpp:[[@LINE-13]]:45: error: parameter 'BLOCK' of the count hook is not known yet when the count hook runs
// CHECK: autotune_hook_binding.cpp:[[@LINE-14]]:77: error: 'x' in reset_to_zero points to const; the kernel cannot write it in place
// CHECK: autotune_hook_binding.cpp:[[@LINE-14]]:24: error: 'n' in reset_to_zero is not a pointer
