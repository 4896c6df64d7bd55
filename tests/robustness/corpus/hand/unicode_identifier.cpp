// EXPECT: error unicode_identifier.cpp:5:19: error: kernel name .größe. is not ASCII
#include <tilec/tl.h>
// Found by the corpus: accepted, then NVRTC failed on the name expression of the kernel.
template <int BLOCK>
TILEC_KERNEL void größe(float *ausgabe, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(ausgabe + offs, 1.0f, offs < n);
}
