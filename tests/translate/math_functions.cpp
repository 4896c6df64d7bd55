// Every one-operand math function of tl::, on float tiles; each maps to tilec::<name> in
// device/common/elementwise.cuh (half and bfloat16 compute in float there).
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void math_fns(const float* x, float* out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 1.0f);
  auto e = tl::exp(v) + tl::exp2(v);
  auto l = tl::log(v) + tl::log2(v);
  auto r = tl::sqrt(v) + tl::rsqrt(v);
  auto t = tl::sin(v) + tl::cos(v) + tl::tanh(v) + tl::erf(v);
  auto s = tl::sigmoid(v) + tl::floor(v) + tl::ceil(v) + tl::abs(v);
  tl::store(out + offs, e + l + r + t + s, mask);
}

// abs also takes integers.
template <int BLOCK>
TILEC_KERNEL void int_abs(const int* x, int* out) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::abs(tl::load(x + offs)));
}

// IR-LABEL: kernel @math_fns<int BLOCK>
// IR:       = unary "exp" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR-NEXT:  = unary "exp2" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR:       = unary "log" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR-NEXT:  = unary "log2" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR:       = unary "sqrt" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR-NEXT:  = unary "rsqrt" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR:       = unary "sin" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR-NEXT:  = unary "cos" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR:       = unary "tanh" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR:       = unary "erf" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR:       = unary "sigmoid" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR-NEXT:  = unary "floor" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR:       = unary "ceil" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR:       = unary "abs" %{{[0-9]+}}:v : tile<float, BLOCK>
// IR-LABEL: kernel @int_abs<int BLOCK>
// IR:       = unary "abs" %{{[0-9]+}} : tile<int, BLOCK>

// CU-LABEL: math_fns(
// CU:       e[i] = (tilec::exp(v[i]) + tilec::exp2(v[i]));
// CU:       l[i] = (tilec::log(v[i]) + tilec::log2(v[i]));
// CU:       r[i] = (tilec::sqrt(v[i]) + tilec::rsqrt(v[i]));
// CU:       t[i] = (((tilec::sin(v[i]) + tilec::cos(v[i])) + tilec::tanh(v[i])) + tilec::erf(v[i]));
// CU:       s[i] = (((tilec::sigmoid(v[i]) + tilec::floor(v[i])) + tilec::ceil(v[i])) + tilec::abs(v[i]));
// CU-LABEL: int_abs(
// CU:       [[A:t[0-9]+]][i] = tilec::abs([[L:t[0-9]+]][i]);
// An unmasked load and store.
// CU:       tilec::store_vec<store_width>((out + offs[i]), &[[A]][i], L0::owner(tid));

// Triton's libdevice functions that kernels call most (tutorial 07's asin, FlagGems' pow), on
// a template element type: each maps to tilec::<name>, 16-bit floats through float.
template <class T, int BLOCK>
TILEC_KERNEL void libdevice_fns(const T* x, const T* y, T* out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0.5f);
  auto w = tl::load(y + offs, mask, 2.0f);
  auto trig = tl::tan(v) + tl::asin(v) + tl::acos(v) + tl::atan(v);
  auto hyp = tl::sinh(v) + tl::cosh(v) + tl::asinh(v) + tl::acosh(w) + tl::atanh(v);
  auto logs = tl::log10(w) + tl::log1p(v) + tl::expm1(v) + tl::erfc(v);
  auto ints = tl::trunc(w) + tl::rint(w);
  auto two = tl::pow(w, v) + tl::atan2(v, w) + tl::hypot(v, w);
  tl::store(out + offs, trig + hyp + logs + ints + two, mask);
}
// IR-LABEL: kernel @libdevice_fns<class T, int BLOCK>
// IR:       = unary "tan" %{{[0-9]+}}:v : tile<T, BLOCK>
// IR:       = unary "rint" %{{[0-9]+}}:w : tile<T, BLOCK>
// IR:       = binary "pow" %{{[0-9]+}}:w, %{{[0-9]+}}:v : tile<T, BLOCK>
// IR:       = binary "hypot"
