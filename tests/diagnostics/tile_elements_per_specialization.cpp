// Each block size is a valid tile dimension, but together they make a tile of more than 2^20
// elements: the kernel's static_assert says so, and --check reports it where the tile is made
// (compiling it would take minutes of unrolling otherwise).
#include <tilec/tl.h>

template <int BM, int BN>
TILEC_KERNEL void fill(float *out, int n) {
  auto rows = tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto at = tl::expand_dims<1>(rows) * BN + tl::expand_dims<0>(cols);
  tl::store(out + at, 1.0f, at < n);
}
// CHECK: tile_elements_per_specialization.cpp:10:13: error: kernel 'fill': a [BM, BN] tile has more than 2^20 elements in this specialization (the limit, as in Triton); use smaller blocks and a loop; a specialization --check compiled breaks it
