// TILEC_FUNC helpers with `auto` parameters are inlined: the generated kernel has no call,
// and a helper's intermediate results fold into the caller's expressions.
#include <tilec/tl.h>

TILEC_FUNC auto axpy(auto a, auto x, auto y) { return a * x + y; }
TILEC_FUNC auto relu(auto x) { return tl::maximum(x, 0.0f); }
TILEC_FUNC auto scale(auto x, float s = 2.0f) { return x * s; }

template <int BLOCK>
TILEC_KERNEL void fused(const float* x, const float* y, float* out, float a, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto r = relu(axpy(a, tl::load(x + offs, mask), tl::load(y + offs, mask)));
  tl::store(out + offs, r, mask);
}

// Default arguments of helpers apply in dependent and resolved calls alike.
template <int BLOCK>
TILEC_KERNEL void scaled(const float* x, float* out) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs);
  tl::store(out + offs, scale(v) + scale(v, 3.0f));
}
TILEC_KERNEL void scaled64(const float* x, float* out) {
  auto offs = tl::arange<0, 64>();
  tl::store(out + offs, scale(tl::load(x + offs)));
}

// IR-LABEL: kernel @fused<int BLOCK>
// IR:       %[[AX:[0-9]+]] = binary "*" %3:a, %[[X:[0-9]+]] : tile<float, BLOCK>
// IR-NEXT:  %[[S:[0-9]+]] = binary "+" %[[AX]], %{{[0-9]+}} : tile<float, BLOCK>
// IR-NEXT:  %[[Z:[0-9]+]] = constant [0.0f] : float
// IR-NEXT:  %{{[0-9]+}}:r = binary "maximum" %[[S]], %[[Z]] : tile<float, BLOCK>

// CU-NOT:   axpy(
// CU-NOT:   relu(
// CU:       r[i] = tilec::maximum(((a * {{t[0-9]+}}[i]) + {{t[0-9]+}}[i]), 0.0f);
// CU-LABEL: scaled(
// CU:       = ((v[i] * 2.0f) + (v[i] * 3.0f));
// CU-LABEL: scaled64(
// CU:       = ({{t[0-9]+}}[i] * 2.0f);
