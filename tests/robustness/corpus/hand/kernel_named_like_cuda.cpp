// EXPECT: accepted
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void launch(float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, 1.0f, offs < n);
}
template <int BLOCK>
TILEC_KERNEL void dim3_kernel(float *cudaStream_t, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(cudaStream_t + offs, 1.0f, offs < n);
}
