// EXPECT: error float_tile_size.cpp:5:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(float *out, float n) {
  auto z = tl::zeros<float, n>();
  tl::store(out + tl::program_id(0), 1.0f);
}
