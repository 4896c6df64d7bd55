// Selecting between pointers (tl::where on tiles of pointers, ?: on scalar pointers) keeps
// the pointer type; the selected pointers are then loaded from.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void pick(const float* x, const float* y, float* out, int n, int use_y) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  const float* base = use_y ? y : x;
  auto ptrs = tl::where(offs < n / 2, x + offs, base + offs);
  tl::store(out + offs, tl::load(ptrs, mask), mask);
}

// IR-LABEL: kernel @pick<int BLOCK>
// IR:       = select %{{[0-9]+}}, %1:y, %0:x : const float*
// IR:       %[[P:[0-9]+]] = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<const float*, BLOCK>
// IR:       = load %[[P]], %{{[0-9]+}}:mask : tile<float, BLOCK>

// Selected pointers are not known to be contiguous: one element per access.
// CU:       tilec::load_vec<[[W:t[0-9]+_width]], {{.*}}>(&{{.*}}[i], ((offs[i] < (n / 2)) ? (x + offs[i]) : ((tilec::cast<bool>(use_y) ? y : x) + offs[i])), &mask[i], 0.0f);
