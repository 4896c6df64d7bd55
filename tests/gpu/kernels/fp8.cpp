// fp8 on the GPU: conversions to and from float (which the interpreter must match bit for
// bit), and a dot of operands rounded to fp8 in registers. Needs sm_89 or newer (the dot).
#include <tilec/tl.h>

// y = T(x) and back = float(y), for n elements.
template <class T, int BLOCK>
TILEC_KERNEL void fp8_round_trip(const float *x, T *y, float *back, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto q = tl::cast<T>(tl::load(x + offs, mask, 0.0f));
  tl::store(y + offs, q, mask);
  tl::store(back + offs, tl::cast<float>(q), mask);
}

// out = the value of each code (a byte taken as T, no rounding), for n codes.
template <class T, int BLOCK>
TILEC_KERNEL void fp8_decode(const uint8_t *codes, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto q = tl::bitcast<T>(tl::load(codes + offs, mask, 0));
  tl::store(out + offs, tl::cast<float>(q), mask);
}

// c = scale * (T(a) @ T(b)) for one BM x BN tile (m, n, k at most BM, BN, BK): the float
// operands are rounded to fp8 in registers, then staged for the tensor cores.
template <int BM, int BN, int BK, class T>
TILEC_KERNEL void quantized_dot(const float *a, const float *b, float *c, float scale, int m, int n,
                                int k) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto am = (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rk) < k);
  auto av = tl::load(a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk), am, 0.0f);
  auto bm = (tl::expand_dims<1>(rk) < k) && (tl::expand_dims<0>(rn) < n);
  auto bv = tl::load(b + tl::expand_dims<1>(rk) * n + tl::expand_dims<0>(rn), bm, 0.0f);
  auto acc = tl::dot(tl::cast<T>(av), tl::cast<T>(bv));
  auto cm = (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rn) < n);
  tl::store(c + tl::expand_dims<1>(rm) * n + tl::expand_dims<0>(rn), acc * scale, cm);
}
