// Scalars may be declared first and assigned later (translate.declare_then_assign); a tile or
// a pointer declared without a value is a located error that says so.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(const float *x, float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  tl::tile<float, BLOCK> t;
  // CHECK: declared_without_value.cpp:[[@LINE-1]]:26: error: variable 't' must be initialized where it is declared (only scalars may be declared first and assigned later)
  const float *p;
  // CHECK: declared_without_value.cpp:[[@LINE-1]]:16: error: variable 'p' must be initialized where it is declared
  t = tl::load(x + offs, offs < n);
  tl::store(out + offs, t, offs < n);
}
// CHECK: 2 errors generated.
