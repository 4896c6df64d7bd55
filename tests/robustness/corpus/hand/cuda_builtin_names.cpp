// EXPECT: error cuda_builtin_names.cpp:4:28: error: kernel parameter name .threadIdx. hides a name the generated CUDA uses; rename it
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *threadIdx, float *blockIdx, int warpSize, int blockDim) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < warpSize + blockDim;
  tl::store(threadIdx + offs, tl::load(blockIdx + offs, mask), mask);
}
