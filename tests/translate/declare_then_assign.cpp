// A scalar declared without a value and assigned in each branch (an original's name set in
// both arms of `if C:`): it starts as 0 and the branches' assignments carry it, so the CUDA
// declares it and assigns it in each branch. Tiles and pointers still need a value where
// they are declared.
#include <tilec/tl.h>
template <int BLOCK, bool MAXN, class T>
TILEC_KERNEL void k(const float *x, float *out, int n, T s) {
  auto offs = tl::arange<0, BLOCK>();
  auto a = tl::load(x + offs, offs < n);
  float m;
  T t;
  int count;
  if constexpr (MAXN)
    m = tl::max(a);
  else
    m = tl::sum(a);
  if (n > 3) {
    count = n;
    t = s;
  } else {
    count = 3;
    t = s * 2;
  }
  tl::store(out + offs, a - m + count + t, offs < n);
}

// CU-LABEL: k(
// CU:       float m;
// CU:       if constexpr (MAXN) {
// CU:         m = m_1;
// CU:       } else {
// CU:         m = m_2;
// CU:       int count;
// CU:         count = n;
// CU:         count = 3;
// CU:       (((a[i] - m) + tilec::cast<float>(count)) + tilec::cast<float>(t_1))
