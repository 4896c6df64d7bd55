// Scalar pointers computed in a kernel (a row's base, a parameter advanced in place) are
// declared as const pointers, not pointers to const: stores may go through them, and a
// `const T*` input keeps its one const.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void copy_rows(const float *in, float *out, int stride, int n) {
  const float *row_in = in + tl::program_id(0) * stride;
  float *row_out = out + tl::program_id(0) * stride;
  out += n; // the parameter itself, advanced
  auto cols = tl::arange<0, BLOCK>();
  auto x = tl::load(row_in + cols, cols < n, 0.0f) + tl::load(row_in + n + cols, cols < n, 0.0f);
  tl::store(row_out + cols, x, cols < n);
  tl::store(row_out + n + cols, x, cols < n);
  tl::store(out + cols, x, cols < n);
  tl::store(out + n + cols, x, cols < n);
}

// CU-LABEL: copy_rows(
// CU:       const float* const {{[a-z_0-9]+}} = (in + {{.*}});
// CU:       float* const {{[a-z_0-9]+}} = (out + ({{.*}} * stride));
// CU:       float* const {{[a-z_0-9]+}} = (out + n);
// CU-NOT:   const const
