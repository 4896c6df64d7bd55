// Kernel parameters and template parameters named like the launcher's own variables: the
// launcher renames its own (grid_1, ...), the kernel keeps its names.
#include <tilec/tl.h>

template <int BLOCK, int tuner>
TILEC_KERNEL void names(const float *grid, float *stream, int options, int kernel, int key,
                        int params, int config, int launch, int chosen, int tuning,
                        int complete, int spec_key, int tuning_key, int div16) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < options + kernel + key + params + config + launch + chosen + tuning +
                         complete + spec_key + tuning_key + div16 + tuner;
  tl::store(stream + offs, tl::load(grid + offs, mask), mask);
}

TILEC_AUTOTUNE(names) = {
    .configs = {{.values = {{"BLOCK", 256}}, .num_warps = 2}},
    .key = {"key", "config"},
    .prune = [](int config, int num_warps) { return config > 0 || num_warps == 2; },
    .reset_to_zero = {{"stream", [](int key) { return key; }}},
    .heuristics = {{"tuner", [](int params) { return params; }}},
};
