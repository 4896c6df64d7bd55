// A literal tile size is checked while clang parses the kernel (tl::tile's static_assert);
// the error points into the header and the note at the kernel's line.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(float* out) {
  auto offs = tl::arange<0, 100>();
  tl::store(out + offs, 1.0f);
}
// CHECK: tile.h:{{[0-9]+}}:{{[0-9]+}}: error: static assertion failed {{.*}}tl::tile dimensions must be powers of two
// CHECK: arange_not_pow2.cpp:7:15: note: in instantiation of template class 'tl::tile<int, 100>' requested here
