// An `if constexpr` condition is kept as C++ in the kernel, so the constants it names from
// outside the kernel (a constexpr global, an enumerator, a static member, a macro) are
// written as their values there: the .cu has none of the input file's declarations (NVRTC
// failed on `reduction == REDUCTION_MEAN`). Template parameters stay names. --check compiles
// both specializations with NVRTC.
#include <tilec/tl.h>

constexpr int REDUCTION_MEAN = 1;
enum Mode { kPlain = 0, kSquare = 2 };
struct Limits {
  static constexpr int kWide = 512;
};
#define USE_OFFSET 1

template <int reduction, int mode, int BLOCK>
TILEC_KERNEL void reduce_row(const float *x, float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n, 0.0f);
  if constexpr (mode == kSquare && BLOCK >= Limits::kWide)
    v = v * v;
  float s = tl::sum(v);
  if constexpr (reduction == REDUCTION_MEAN)
    s = s / n;
  if constexpr (USE_OFFSET)
    s = s + 1.0f;
  tl::store(out, s);
}

// CU-LABEL: reduce_row(
// CU:       if constexpr (mode == (2) && BLOCK >= (512)) {
// CU:       if constexpr (reduction == (1)) {
// CU:       if constexpr (1) {
