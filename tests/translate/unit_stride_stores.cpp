// unit-stride-stores: a store whose pointers step along their last dimension by a kernel
// argument gets a copy for that argument equal to 1, which the analyses see as contiguous.
#include <tilec/tl.h>

// Tutorial 03's epilogue as written: stride_cn is an argument.
template <int BM, int BN>
TILEC_KERNEL void epilogue(const float *x, float *c, int M, int N, int stride_cm, int stride_cn) {
  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto cols = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rows) < M) & (tl::expand_dims<0>(cols) < N);
  auto v = tl::load(x + tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols), mask, 0.0f);
  tl::store(c + tl::expand_dims<1>(rows) * stride_cm + tl::expand_dims<0>(cols) * stride_cn,
            v * 2.0f, mask);
}
// IR-LABEL: kernel @epilogue<int BM, int BN>
// IR:       [[ONE:%[0-9]+]] = constant [1] : int
// IR-NEXT:  [[COND:%[0-9]+]] = binary "==" %5:stride_cn, [[ONE]] : bool
// IR-NEXT:  if [[COND]]
// IR-NEXT:  {
// IR:         [[PROD:%[0-9]+]] = binary "*" %{{[0-9]+}}, %{{[0-9]+}} : tile<int, 1, BN>
// IR:         store %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}:mask
// IR-NEXT:  } else {
// IR-NEXT:    store %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}:mask

// CU-LABEL: epilogue(
// CU:       // unit_stride_stores.cpp:12: stride_cn == 1: the store's pointers are contiguous along its rows
// CU-NEXT:  if ((stride_cn == 1)) {
// CU:         // BN consecutive addresses
// CU:       } else {
// CU:         // 1 consecutive addresses

// A 1-D store with its stride, and one whose rows alone have a stride (already contiguous):
// only the first is versioned.
template <int B>
TILEC_KERNEL void strided_rows(const float *x, float *y, int n, int stride_y, int ld) {
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();
  auto v = tl::load(x + offs, offs < n, 0.0f);
  tl::store(y + offs * stride_y, v, offs < n);
  tl::store(y + tl::program_id(1) * ld + offs, v, offs < n);
}
// IR-LABEL: kernel @strided_rows<int B>
// IR:       binary "==" %3:stride_y, {{.*}} : bool
// IR-NEXT:  if
// IR:       } else {
// IR-NEXT:    store
// IR-NOT:   if
// IR:       store
// IR-NOT:   store
