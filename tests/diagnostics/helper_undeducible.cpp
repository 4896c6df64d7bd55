// A template helper parameter that neither an explicit argument nor an argument type gives
// (in a template kernel, where clang leaves the call to the translator).
#include <tilec/tl.h>

template <int K> TILEC_FUNC auto shift(auto t) { return t + K; }

template <int B>
TILEC_KERNEL void k(float* out) {
  tl::store(out + tl::arange<0, B>(), shift(tl::zeros<float, B>()));
  // CHECK: helper_undeducible.cpp:[[@LINE-1]]:39: error: cannot deduce template parameter 'K' of 'shift'; give it explicitly
}
