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

// Pointers moved back by integers (FlagGems' `partial_sum + pid - 1`), in place and as tiles;
// an argument kept for the signature only, discarded as `(void)M`.
template <int BLOCK>
TILEC_KERNEL void previous_sums(const float *sums, float *out, int n, int M) {
  (void)M;
  int pid = tl::program_id(0);
  float prev = tl::load(sums + pid - 1);
  out -= 1;
  auto offs = tl::arange<0, BLOCK>();
  auto back = tl::load(sums + n - offs, offs < n, 0.0f); // sums[n], sums[n-1], ...
  tl::store(out + 1 + pid * BLOCK + offs, back + prev, offs < n);
}
// CU-LABEL: previous_sums(
// CU-NOT:   M;
// CU:       *((sums + pid) + (-1))
// CU:       ((sums + n) + (-offs[i]))
// CU:       (out + (-1)) + 1)
