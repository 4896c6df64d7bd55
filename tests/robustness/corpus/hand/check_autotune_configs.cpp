// EXPECT: accepted
#include <tilec/tl.h>
// --check compiles what is launched: the configs, where BLOCK - SKIP is 32 each time. At the
// fallback values (16 for both) the dimension would be 0, so acceptance shows the configs were
// the specializations compiled.
template <int BLOCK, int SKIP>
TILEC_KERNEL void tail(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<SKIP, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}

TILEC_AUTOTUNE(tail) = {
    .configs = {{.values = {{"BLOCK", 64}, {"SKIP", 32}}, .num_warps = 1},
                {.values = {{"BLOCK", 128}, {"SKIP", 96}}, .num_warps = 1}},
    .key = {"n"},
};
