// where / maximum / minimum / clamp / fma, and the integer functions cdiv and umulhi.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void select_fns(const float* x, const float* y, float* out, float lo, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask);
  auto w = tl::where(a > b, a, b);
  auto ws = tl::where(mask, a, 0.0f);
  auto mx = tl::maximum(a, b);
  auto mn = tl::minimum(a, lo);
  auto c = tl::clamp(a, lo, 1.0f);
  auto f = tl::fma(a, b, w);
  tl::store(out + offs, w + ws + mx + mn + c + f, mask);
}

template <int BLOCK>
TILEC_KERNEL void int_fns(const unsigned* x, unsigned* out, unsigned d) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs);
  tl::store(out + offs, tl::cdiv(v, d) + tl::umulhi(v, 2654435769u));
}

template <int BLOCK>
TILEC_KERNEL void narrow_and_wide(const int8_t* c, int8_t* co, const int64_t* x, int64_t* out) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(co + offs, tl::load(c + offs, offs < 100, 1));
  tl::store(out + offs, tl::maximum(tl::load(x + offs), 5));
}

// IR-LABEL: kernel @select_fns<int BLOCK>
// IR:       :w = select %{{[0-9]+}}, %{{[0-9]+}}:a, %{{[0-9]+}}:b : tile<float, BLOCK>
// A scalar branch of where broadcasts; the tile's type wins.
// IR:       :ws = select %{{[0-9]+}}:mask, %{{[0-9]+}}:a, %{{[0-9]+}} : tile<float, BLOCK>
// IR:       :mx = binary "maximum" %{{[0-9]+}}:a, %{{[0-9]+}}:b : tile<float, BLOCK>
// IR:       :mn = binary "minimum" %{{[0-9]+}}:a, %3:lo : tile<float, BLOCK>
// IR:       :c = ternary "clamp" %{{[0-9]+}}:a, %3:lo, %{{[0-9]+}} : tile<float, BLOCK>
// IR:       :f = ternary "fma" %{{[0-9]+}}:a, %{{[0-9]+}}:b, %{{[0-9]+}}:w : tile<float, BLOCK>
// IR-LABEL: kernel @int_fns<int BLOCK>
// IR:       = binary "cdiv" %{{[0-9]+}}:v, %2:d : tile<unsigned, BLOCK>
// IR:       = binary "umulhi" %{{[0-9]+}}:v, %{{[0-9]+}} : tile<unsigned, BLOCK>

// CU-LABEL: select_fns(
// CU:       w[i] = ((a[i] > b[i]) ? a[i] : b[i]);
// CU:       ws[i] = (mask[i] ? a[i] : 0.0f);
// CU:       mx[i] = tilec::maximum(a[i], b[i]);
// CU:       mn[i] = tilec::minimum(a[i], lo);
// CU:       c[i] = tilec::clamp(a[i], lo, 1.0f);
// CU:       f[i] = tilec::fma(a[i], b[i], w[i]);
// CU-LABEL: int_fns(const unsigned* x, unsigned* out, unsigned d)
// Literals of types other than int spell their type (and unsigned ones keep their value), so
// that the device templates deduce one type for both operands.
// CU:       = (tilec::cdiv(v[i], d) + tilec::umulhi(v[i], unsigned(2654435769)));
// CU-LABEL: narrow_and_wide(
// CU:       tilec::load_vec<{{.*}}>(&{{.*}}, (c + offs[i]), &{{.*}}, int8_t(1));
// CU:       = tilec::maximum({{.*}}, int64_t(5));
