// Dropout with a stored keep mask and the arc sine of a vector, ported from Triton's tutorials
// (github.com/triton-lang/triton, python/tutorials/04-low-memory-dropout.py: _dropout, and
// 07-extern-functions.py: asin_kernel; MIT licence).
//
// out[i] = x[i] / (1 - p) where keep[i] is nonzero, else 0; the mask (0s and 1s, int32 on the
// tutorial's host) is an input. The tutorial's seeded variant (_seeded_dropout, tl.rand) is
// already in examples/dropout/dropout.cpp and is not repeated here.
//
// Tutorial 07 calls libdevice.asin (from a libdevice path the host chooses); tilec names the
// function tl::asin, which maps to CUDA's asinf.
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

template <int BLOCK_SIZE>
TILEC_KERNEL void asin_kernel(const float *x_ptr, float *y_ptr, int n_elements) {
  int pid = tl::program_id(0);
  int block_start = pid * BLOCK_SIZE;
  auto offsets = block_start + tl::arange<0, BLOCK_SIZE>();
  auto mask = offsets < n_elements;
  auto x = tl::load(x_ptr + offsets, mask);
  x = tl::asin(x);
  tl::store(y_ptr + offsets, x, mask);
}
