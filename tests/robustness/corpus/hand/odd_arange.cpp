// EXPECT: error tile.h:[0-9]+:[0-9]+: error: .*tl::tile dimensions must be powers of two(.|\n)*odd_arange.cpp:5:15: note: in instantiation
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(int *out) {
  auto offs = tl::arange<0, 3>();
  tl::store(out + offs, offs);
}
