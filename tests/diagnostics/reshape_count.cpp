// A reshape must keep the number of elements (in a template kernel, where the header's own
// check cannot run before instantiation).
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void k(float* out) {
  auto v = tl::zeros<float, 4, 8>() + B;
  tl::store(out + tl::arange<0, 16>(), tl::reshape<16>(v));
  // CHECK: reshape_count.cpp:[[@LINE-1]]:40: error: tl::reshape from [4, 8] to [16] changes the number of elements
}
