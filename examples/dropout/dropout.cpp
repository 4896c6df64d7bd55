// Low-memory dropout (Triton tutorial 04): the keep mask is not stored but recomputed from
// (seed, element offset) with a counter-based generator, so the backward pass (or a check)
// regenerates exactly the same mask from the seed alone.
#include <tilec/tl.h>

// out[i] = x[i] / (1 - p) where rand(seed, i) > p, else 0.
template <int BLOCK>
TILEC_KERNEL void dropout_kernel(const float *x, float *out, int n, float p, int seed) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto xv = tl::load(x + offs, mask);
  auto keep = tl::rand(seed, offs) > p;
  tl::store(out + offs, tl::where(keep, xv / (1.0f - p), 0.0f), mask);
}
