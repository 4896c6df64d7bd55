// Template parameters with defaults (Triton's `reduction: tl.constexpr = MEAN`, Liger's TVD):
// the launcher keeps them, so a host call and --aot may leave those arguments out. A default
// is spelled by its value (a file-scope constant need not be visible to the launcher).
#include <tilec/tl.h>

constexpr int kBatchMean = 3;

template <int BLOCK, int MODE = kBatchMean, bool SCALE = true, class T = float>
TILEC_KERNEL void reduce_rows(const T *x, float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  float s = tl::sum(tl::cast<float>(tl::load(x + tl::program_id(0) * n + offs, offs < n, 0)));
  if constexpr (SCALE)
    s = s * MODE;
  tl::store(out + tl::program_id(0), s);
}
// H-LABEL: Launches reduce_rows
// H-NEXT:  template <int BLOCK, int MODE = 3, bool SCALE = true, class T = float>
// AOT:     reduce_rows<256, 3, true, float, 4, 3,
// AOT:     reduce_rows<256, 1, false, float, 4, 3,
