// Tile sizes no specialization can have are errors at translation, not a static_assert of the
// device library at the first launch.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void swapped(int *out) {
  auto offs = tl::arange<BLOCK, 0>();
  tl::store(out + offs, offs);
}

template <int BLOCK, bool EVEN>
TILEC_KERNEL void flag_as_size(int *out) {
  auto offs = tl::arange<0, EVEN>();
  tl::store(out + offs, offs);
}

template <int BLOCK>
TILEC_KERNEL void too_large(float *out) {
  auto big = tl::zeros<float, 1024, 2048>();
  tl::store(out + tl::arange<0, 1024>(), tl::sum<1>(big));
}
// CHECK: tile_sizes.cpp:7:15: error: tl::arange<BLOCK, 0> ends before it starts; the bounds are <START, END>: tl::arange<0, BLOCK>
// CHECK: tile_sizes.cpp:13:15: error: tile dimension 'EVEN' comes from the bool template parameter 'EVEN'; give tile sizes as int template parameters (template <int BLOCK>)
// CHECK: tile_sizes.cpp:19:14: error: a tile of shape [1024, 2048] has 2097152 elements, more than the limit of 1048576 (as in Triton); use smaller tiles and a loop
// CHECK-NOT: error
// CHECK: 3 errors generated.
