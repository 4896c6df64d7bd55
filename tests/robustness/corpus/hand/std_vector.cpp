// EXPECT: error std_vector.cpp:[0-9]+:
#include <tilec/tl.h>
#include <vector>
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  std::vector<float> v(4);
  tl::store(out + tl::program_id(0), v[0]);
}
