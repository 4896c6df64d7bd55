// Tensor descriptors become what a kernel would write by hand: index tiles named after the
// descriptor (rows in 64-bit, times their stride; columns contiguous), a mask that keeps the
// box inside the tensor, and an ordinary masked load or store, vectorized along the rows.
#include <tilec/tl.h>

template <int BM, int BN>
TILEC_KERNEL void scale_box(const float *x, float *y, int M, int N, int stride) {
  int m0 = tl::program_id(0) * BM;
  auto in = tl::make_tensor_descriptor<BM, BN>(x, {M, N}, {stride, 1});
  auto out = tl::make_tensor_descriptor<BM, BN>(y, {M, N}, {N, 1});
  out.store({m0, 0}, in.load({m0, 0}) * 3.0f);
}
// CU-LABEL: scale_box(const float* x, float* y, int M, int N, int stride) {
// CU:       // descriptors.cpp:11: in.load({m0, 0})
// CU-NEXT:  int in_rows[L1::ELEMS];
// CU:       for (int i = 0; i < L1::ELEMS; ++i) in_rows[i] = (m0 + L1::coord(tid, i));
// CU:       int in_cols[L2::ELEMS];
// CU:       bool in_inside[L0::ELEMS];
// CU-NEXT:  #pragma unroll
// CU-NEXT:  for (int i = 0; i < L0::ELEMS; ++i) in_inside[i] = (((in_rows[L1::from_parent(i)] >= 0) & (in_rows[L1::from_parent(i)] < M)) & ((in_cols[L2::from_parent(i)] >= 0) & (in_cols[L2::from_parent(i)] < N)));
// CU:       // BN consecutive addresses, aligned to
// CU:       tilec::load_vec<{{.*}}>(&{{.*}}[i], (x + ((tilec::cast<int64_t>(in_rows[L1::from_parent(i)]) * tilec::cast<int64_t>(stride)) + tilec::cast<int64_t>(in_cols[L2::from_parent(i)]))), &in_inside[i], 0.0f);
// CU:       bool out_inside[L0::ELEMS];
// CU:       tilec::store_vec<{{.*}}>((y + ((tilec::cast<int64_t>(out_rows[L1::from_parent(i)]) * tilec::cast<int64_t>(N)) + tilec::cast<int64_t>(out_cols[L2::from_parent(i)]))), &{{.*}}[i], &out_inside[i], L0::owner(tid));
