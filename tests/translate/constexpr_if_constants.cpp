// An `if constexpr` condition is kept as C++ in the kernel, so what it names that the .cu
// does not declare is written out: constants from outside the kernel (a constexpr global, an
// enumerator, a static member, a macro) as their values, an inlined helper's template
// parameters as what the call gave, std::is_same_v as the device library's (NVRTC has no
// standard library). NVRTC failed on each before. The kernel's template parameters stay
// names. --check compiles the specializations with NVRTC.
#include <tilec/tl.h>

#include <type_traits>

constexpr int REDUCTION_MEAN = 1;
enum Mode { kPlain = 0, kSquare = 2 };
struct Limits {
  static constexpr int kWide = 512;
};
#define USE_OFFSET 1

template <int SHIFT, class U, int N> TILEC_FUNC auto adjust(tl::tile<U, N> x) {
  auto y = tl::cast<float>(x);
  if constexpr (SHIFT > 0 && std::is_same_v<U, tl::half>)
    y = y + float(SHIFT);
  return y;
}

template <int reduction, int mode, class T, int BLOCK>
TILEC_KERNEL void reduce_row(const T *x, float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = adjust<3>(tl::load(x + offs, offs < n));
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
// CU:       if constexpr ((3) > 0 && tilec::is_same_v<T, tl::half>) {
// CU:       if constexpr (mode == (2) && BLOCK >= (512)) {
// CU:       if constexpr (reduction == (1)) {
// CU:       if constexpr (1) {
