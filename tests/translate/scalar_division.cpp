// A scalar's `/` of floats is a tile's: Triton's approximate division (fdiv, div.full.f32), so
// that a ported `loss / n` divides as its original does. Doubles and integers divide exactly,
// tl::div_rn is the exact float division, and a quotient of constants and template parameters
// stays C++'s, which the compiler folds. A local declared with a template type parameter
// converts to it (`T t = total;`), as in C++, and `T(x)` is a cast.
#include <tilec/tl.h>

template <int BLOCK, class T>
TILEC_KERNEL void scalar_division(const float* x, float* out, double* out_d, T* out_t, int* out_i,
                                  float total, double scale, int n) {
  int pid = tl::program_id(0);
  constexpr float inv_block = 1.0f / BLOCK;
  float mean = total / n;
  float exact = tl::div_rn(total, float(n));
  double ratio = scale / n;
  int per_program = n / BLOCK;
  T t = total, two = 2;
  T generic = t / two + T(total) / T(4);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask);
  float sum = tl::sum(v);
  tl::store(out + pid, sum / mean + exact * inv_block);
  tl::store(out_d + pid, ratio);
  tl::store(out_t + pid, generic);
  tl::store(out_i + pid, per_program);
}

// IR-LABEL: kernel @scalar_division<int BLOCK, class T>
// IR:       :mean = binary "fdiv"
// IR:       :exact = binary "/"
// IR:       :ratio = binary "/"
// IR:       :per_program = binary "/"
// IR:       :t = cast %{{[0-9]+}}:total : T
// T scalars compute as C++ computes them: widened (half / half is float, in the interpreter
// too), which the device resolves where T is known.
// IR:       = binary "fdiv" %{{[0-9]+}}, %{{[0-9]+}} : tilec::widen_t<T>
// A functional cast to T (`T(total)`) is a cast too.
// IR:       = cast %{{[0-9]+}}:total : T

// CU:       const float inv_block = (1.0f / tilec::cast<float>(BLOCK));
// CU:       const float mean = tilec::fdiv(total, tilec::cast<float>(n));
// CU:       const float exact = (total / tilec::cast<float>(n));
// CU:       const double ratio = (scale / tilec::cast<double>(n));
// CU:       const int per_program = (n / BLOCK);
// CU:       const T t = tilec::cast<T>(total);
// CU:       const T generic = tilec::cast<T>((tilec::fdiv(tilec::cast<tilec::widen_t<T>>(t), tilec::cast<tilec::widen_t<T>>(two)) + tilec::fdiv(
