// Scalars of the storage types (tl::half, tl::bfloat16, the fp8 types) convert to float
// implicitly, as in C++ (their `operator float`, exact): in an initialization, an assignment,
// a helper's float parameter and arithmetic with floats. A float converts back to them
// implicitly too (their converting constructor, rounding to nearest even).
#include <tilec/tl.h>

TILEC_FUNC auto twice(float v) { return v * 2.0f; }

template <int BLOCK>
TILEC_KERNEL void scale_by(const float* x, float* out, tl::half h, tl::bfloat16 b,
                           tl::float8_e4m3 e4, tl::float8_e5m2 e5, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  float fh = h;
  float fb = 0.0f;
  fb = b;
  double d = e4;
  float sum = fh + fb + float(d) + twice(e5) + h * 0.5f;
  tl::half rounded = sum;
  tl::store(out + offs, tl::load(x + offs, mask) * sum + rounded, mask);
}

// IR-LABEL: kernel @scale_by<int BLOCK>
// IR:       %[[H:[0-9]+]]:h = param [2] : tl::half
// IR-NEXT:  %[[B:[0-9]+]]:b = param [3] : tl::bfloat16
// IR-NEXT:  %[[E4:[0-9]+]]:e4 = param [4] : tl::float8_e4m3
// IR-NEXT:  %[[E5:[0-9]+]]:e5 = param [5] : tl::float8_e5m2
// IR:       :fh = cast %[[H]]:h : float
// IR:       :fb = cast %[[B]]:b : float
// fp8 -> double goes through float, as C++ converts it (exact either way).
// IR-NEXT:  %[[E4F:[0-9]+]] = cast %[[E4]]:e4 : float
// IR-NEXT:  :d = cast %[[E4F]] : double
// IR:       = cast %[[E5]]:e5 : float
// `h * 0.5f` multiplies floats (C++'s built-in operator after the conversion).
// IR:       %[[HF:[0-9]+]] = cast %[[H]]:h : float
// IR-NEXT:  %[[HALF:[0-9]+]] = constant [0.5f] : float
// IR-NEXT:  = binary "*" %[[HF]], %[[HALF]] : float
// IR:       :rounded = cast %{{[0-9]+}}:sum : tl::half

// CU-LABEL: scale_by(const float* x, float* out, tl::half h, tl::bfloat16 b, tl::float8_e4m3 e4, tl::float8_e5m2 e5, int n) {
// CU:       const float fh = tilec::cast<float>(h);
// CU:       const float fb = tilec::cast<float>(b);
// CU:       const double d = tilec::cast<double>(tilec::cast<float>(e4));
// CU:       const float sum = ((((fh + fb) + tilec::cast<float>(d)) + (tilec::cast<float>(e5) * 2.0f)) + (tilec::cast<float>(h) * 0.5f));
// CU:       const tl::half rounded = tilec::cast<tl::half>(sum);
