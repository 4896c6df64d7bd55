// EXPECT: error tile_dim_per_specialization.cpp:8:.*tile dimension 'BLOCK - 1' must be a power of two
#include <tilec/tl.h>
// Found by the corpus: a size right for no BLOCK that --check compiles (BLOCK - 1) used to pass
// translation and fail in NVRTC inside the device library's layouts; the kernel now checks
// each dimension known per specialization and --check says which.
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<1, BLOCK>();
  tl::store(out + offs, 1.0f, offs < n);
}
