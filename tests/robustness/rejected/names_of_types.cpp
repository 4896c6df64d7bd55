// Parameters and locals named like the types and built-ins the generated CUDA spells would
// hide them there: refused, each once.
#include <tilec/tl.h>

template <int BLOCK, int warpSize>
TILEC_KERNEL void k(const float *x, float *out, int size_t, long threadIdx) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  int int64_t = size_t + threadIdx;
  tl::store(out + offs, tl::load(x + offs, offs < int64_t), offs < int64_t);
}
// CHECK: names_of_types.cpp:5:26: error: template parameter name 'warpSize' hides a name the generated CUDA uses; rename it
// CHECK: names_of_types.cpp:6:53: error: kernel parameter name 'size_t' hides a name the generated CUDA uses; rename it
// CHECK: names_of_types.cpp:6:66: error: kernel parameter name 'threadIdx' hides a name the generated CUDA uses; rename it
// CHECK: names_of_types.cpp:8:7: error: local variable name 'int64_t' hides a name the generated CUDA uses; rename it
// CHECK-NOT: error
// CHECK: 4 errors generated.
