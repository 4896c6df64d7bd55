// Dropout with a stored keep mask, ported from Triton's tutorials (github.com/triton-lang/triton,
// python/tutorials/04-low-memory-dropout.py: _dropout; MIT licence).
//
// out[i] = x[i] / (1 - p) where keep[i] is nonzero, else 0; the mask (0s and 1s, int32 on the
// tutorial's host) is an input. The tutorial's seeded variant (_seeded_dropout, tl.rand) is
// already in examples/dropout/dropout.cpp and is not repeated here.
//
// Left out: python/tutorials/07-extern-functions.py (asin_kernel), which applies
// libdevice.asin to a tile: tilec's vocabulary has no asin, nor a way to call a libdevice
// function it does not name.
#include <tilec/tl.h>

template <int BLOCK_SIZE>
TILEC_KERNEL void _dropout(const float *x_ptr, const int32_t *x_keep_ptr, float *output_ptr,
                           int n_elements, float p) {
  int pid = tl::program_id(0);
  int block_start = pid * BLOCK_SIZE;
  auto offsets = block_start + tl::arange<0, BLOCK_SIZE>();
  auto mask = offsets < n_elements;
  auto x = tl::load(x_ptr + offsets, mask);
  auto x_keep = tl::load(x_keep_ptr + offsets, mask);
  // a nonzero keep entry keeps (and rescales) the element
  auto output = tl::where(x_keep, x / (1 - p), 0.0f);
  tl::store(output_ptr + offsets, output, mask);
}
