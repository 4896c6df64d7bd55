// C++ operators on float tiles, mixed with scalars (which broadcast without widening).
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void float_ops(const float* x, const float* y, float* out, bool* flags, float s, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask);
  auto r = (a + b) * (a - b) / (-b) + s * a - 2.0f;
  auto c = (a < s) || (a >= b) || !(a == b) || (a != s) || (a > b && a <= 1.0f);
  tl::store(out + offs, r, mask);
  tl::store(flags + offs, c, mask);
}

// IR-LABEL: kernel @float_ops<int BLOCK>
// IR:       %{{[0-9]+}} = binary "+" %{{[0-9]+}}:a, %{{[0-9]+}}:b : tile<float, BLOCK>
// IR:       = unary "-" %{{[0-9]+}}:b : tile<float, BLOCK>
// A scalar parameter stays a scalar operand.
// IR:       = binary "*" %4:s, %{{[0-9]+}}:a : tile<float, BLOCK>
// IR:       :r = binary "-" {{.*}} : tile<float, BLOCK>
// IR:       = binary "<" %{{[0-9]+}}:a, %4:s : tile<bool, BLOCK>
// IR:       :c = binary "||" {{.*}} : tile<bool, BLOCK>

// CU:         r[i] = ((tilec::fdiv(((a[i] + b[i]) * (a[i] - b[i])), (-b[i])) + (s * a[i])) - 2.0f);
// CU:         c[i] = (((((a[i] < s) || (a[i] >= b[i])) || (!(a[i] == b[i]))) || (a[i] != s)) || ((a[i] > b[i]) && (a[i] <= 1.0f)));
