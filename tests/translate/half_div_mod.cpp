// `/` and `%` of half and bfloat16 tiles compute in float and give float tiles, as in the
// interpreter (promotion.h, rules 0, 3 and 4); `%` of floats is fmod. Other operators keep
// half and bfloat16. A tile's `/` of floats is Triton's approximate division (fdiv);
// tl::div_rn is the exact one (C++'s `/`), tl::fdiv the approximate one by name.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void div_mod(const tl::half* x, const tl::half* y, const tl::bfloat16* z,
                          float* out, tl::half* out_h, tl::bfloat16* out_b) {
  auto offs = tl::arange<0, BLOCK>();
  auto a = tl::load(x + offs);
  auto b = tl::load(y + offs);
  auto c = tl::load(z + offs);
  auto quotient = a / b;
  auto remainder = a % b;
  auto halved = a / 2;
  auto bf_quotient = c / c;
  auto bf_remainder = c % 1.5f;
  auto mixed = a / c;
  auto exact = tl::div_rn(a, b);
  auto approx = tl::fdiv(c, 3.0f);
  tl::store(out + offs,
            quotient + remainder + halved + bf_quotient + bf_remainder + mixed + exact + approx);
  auto sum = a + b;
  a /= b; // computed in float, rounded back to half
  tl::store(out_h + offs, sum + a);
  tl::store(out_b + offs, c * c);
}

// IR-LABEL: kernel @div_mod<int BLOCK>
// IR:       %[[AF:[0-9]+]] = cast %{{[0-9]+}}:a : tile<float, BLOCK>
// IR-NEXT:  %[[BF:[0-9]+]] = cast %{{[0-9]+}}:b : tile<float, BLOCK>
// IR-NEXT:  :quotient = binary "fdiv" %[[AF]], %[[BF]] : tile<float, BLOCK>
// IR:       :remainder = binary "%" {{.*}} : tile<float, BLOCK>
// IR:       %[[TWO:[0-9]+]] = constant [2.0f] : float
// IR:       :halved = binary "fdiv" %{{[0-9]+}}, %[[TWO]] : tile<float, BLOCK>
// IR:       :bf_quotient = binary "fdiv" {{.*}} : tile<float, BLOCK>
// IR:       :bf_remainder = binary "%" {{.*}} : tile<float, BLOCK>
// IR:       :mixed = binary "fdiv" {{.*}} : tile<float, BLOCK>
// IR:       :exact = binary "/" {{.*}} : tile<float, BLOCK>
// IR:       :approx = binary "fdiv" {{.*}} : tile<float, BLOCK>
// IR:       :sum = binary "+" %{{[0-9]+}}:a, %{{[0-9]+}}:b : tile<tl::half, BLOCK>
// IR:       = binary "fdiv" {{.*}} : tile<float, BLOCK>
// IR-NEXT:  :a = cast %{{[0-9]+}} : tile<tl::half, BLOCK>
// IR:       = binary "*" %{{[0-9]+}}:c, %{{[0-9]+}}:c : tile<tl::bfloat16, BLOCK>

// CU:       quotient[i] = tilec::fdiv(tilec::cast<float>(a[i]), tilec::cast<float>(b[i]));
// CU:       remainder[i] = fmodf(tilec::cast<float>(a[i]), tilec::cast<float>(b[i]));
// CU:       halved[i] = tilec::fdiv(tilec::cast<float>(a[i]), 2.0f);
// CU:       bf_remainder[i] = fmodf(tilec::cast<float>(c[i]), 1.5f);
// CU:       exact[i] = (tilec::cast<float>(a[i]) / tilec::cast<float>(b[i]));
// CU:       approx[i] = tilec::fdiv(tilec::cast<float>(c[i]), 3.0f);

// `%` where the element type is a template parameter: tilec::mod, `%` for integers and fmod
// for floats, so that every instance compiles (C++'s `%` rejects floats).
template <class T, int BLOCK> TILEC_KERNEL void template_mod(const T *x, const T *y, T *out) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs) % tl::load(y + offs));
}
// CU-LABEL: template_mod(
// CU:       tilec::mod(
