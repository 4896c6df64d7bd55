// Every C++ operator on integer tiles: arithmetic, bitwise, shifts, comparisons (bool tiles),
// logical operators on bool tiles, and the prefix operators.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void int_ops(const int* x, const int* y, int* out, bool* flags, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask, 1);
  auto sum = a + b;
  auto diff = a - b;
  auto prod = a * b;
  auto quot = a / b;
  auto rem = a % b;
  auto band = a & b;
  auto bor = a | b;
  auto bxor = a ^ b;
  auto shl = a << 2;
  auto shr = a >> b;
  auto neg = -a;
  auto inv = ~a;
  auto lt = a < b;
  auto gt = a > b;
  auto le = a <= b;
  auto ge = a >= b;
  auto eq = a == b;
  auto ne = a != b;
  auto both = lt && gt;
  auto either = le || ge;
  auto nope = !eq;
  auto total = sum + diff + prod + quot + rem + band + bor + bxor + shl + shr + neg + inv;
  tl::store(out + offs, total, mask);
  tl::store(flags + offs, both || either || nope || ne, mask);
}

// IR-LABEL: kernel @int_ops<int BLOCK>
// IR:       %{{[0-9]+}}:sum = binary "+" %{{[0-9]+}}:a, %{{[0-9]+}}:b : tile<int, BLOCK>
// IR-NEXT:  :diff = binary "-" {{.*}} : tile<int, BLOCK>
// IR-NEXT:  :prod = binary "*" {{.*}} : tile<int, BLOCK>
// IR-NEXT:  :quot = binary "/" {{.*}} : tile<int, BLOCK>
// IR-NEXT:  :rem = binary "%" {{.*}} : tile<int, BLOCK>
// IR-NEXT:  :band = binary "&" {{.*}} : tile<int, BLOCK>
// IR-NEXT:  :bor = binary "|" {{.*}} : tile<int, BLOCK>
// IR-NEXT:  :bxor = binary "^" {{.*}} : tile<int, BLOCK>
// IR-NEXT:  = constant [2] : int
// IR-NEXT:  :shl = binary "<<" {{.*}} : tile<int, BLOCK>
// IR-NEXT:  :shr = binary ">>" {{.*}} : tile<int, BLOCK>
// IR-NEXT:  :neg = unary "-" {{.*}} : tile<int, BLOCK>
// IR-NEXT:  :inv = unary "~" {{.*}} : tile<int, BLOCK>
// IR-NEXT:  :lt = binary "<" {{.*}} : tile<bool, BLOCK>
// IR-NEXT:  :gt = binary ">" {{.*}} : tile<bool, BLOCK>
// IR-NEXT:  :le = binary "<=" {{.*}} : tile<bool, BLOCK>
// IR-NEXT:  :ge = binary ">=" {{.*}} : tile<bool, BLOCK>
// IR-NEXT:  :eq = binary "==" {{.*}} : tile<bool, BLOCK>
// IR-NEXT:  :ne = binary "!=" {{.*}} : tile<bool, BLOCK>
// IR-NEXT:  :both = binary "&&" {{.*}} : tile<bool, BLOCK>
// IR-NEXT:  :either = binary "||" {{.*}} : tile<bool, BLOCK>
// IR-NEXT:  :nope = unary "!" {{.*}} : tile<bool, BLOCK>

// An explicit scalar `other`.
// CU:       tilec::load_vec<b_width, b_mask_uniform>(&b[i], (y + offs[i]), &mask[i], 1);
// Each named value is a per-thread array; values computed in a row share one loop over the
// elements.
// CU:       bool lt[L0::ELEMS];
// CU:         sum[i] = (a[i] + b[i]);
// CU:         diff[i] = (a[i] - b[i]);
// CU:         prod[i] = (a[i] * b[i]);
// CU:         quot[i] = (a[i] / b[i]);
// CU:         rem[i] = (a[i] % b[i]);
// CU:         band[i] = (a[i] & b[i]);
// CU:         bor[i] = (a[i] | b[i]);
// CU:         bxor[i] = (a[i] ^ b[i]);
// CU:         shl[i] = (a[i] << 2);
// CU:         shr[i] = (a[i] >> b[i]);
// CU:         neg[i] = (-a[i]);
// CU:         inv[i] = (~a[i]);
// CU:         lt[i] = (a[i] < b[i]);
// CU:         gt[i] = (a[i] > b[i]);
// CU:         le[i] = (a[i] <= b[i]);
// CU:         ge[i] = (a[i] >= b[i]);
// CU:         eq[i] = (a[i] == b[i]);
// CU:         ne[i] = (a[i] != b[i]);
// CU:         both[i] = (lt[i] && gt[i]);
// CU:         either[i] = (le[i] || ge[i]);
// CU:         nope[i] = (!eq[i]);
// Single-use intermediate results fold into one expression.
// CU:       total[i] = (((((((((((sum[i] + diff[i]) + prod[i]) + quot[i]) + rem[i]) + band[i]) + bor[i]) + bxor[i]) + shl[i]) + shr[i]) + neg[i]) + inv[i]);
