// Block pointers become what a kernel would write by hand: the box's offsets are integers the
// loop carries (only those tl::advance moves), each load or store an index tile per
// dimension, a pointer tile, and a mask over the dimensions of the boundary check only. So
// the analyses treat the box like any pointer tile: the operands of a dot loop come through
// the copy engine (tma-copies) where the inner stride is 1 (the literal, or an argument the
// launcher checks), else through cp.async.
#include <tilec/tl.h>

// Triton's block-pointer tutorial (08-experimental-block-pointer.py, Triton 2.1): strides at
// run time, Triton's `order` given.
template <int BM, int BN, int BK>
TILEC_KERNEL void strided_mm(const tl::half *a, const tl::half *b, float *c, int M, int N, int K,
                             int stride_am, int stride_ak, int stride_bk, int stride_bn) {
  auto a_bp = tl::make_block_ptr<BM, BK>(a, {M, K}, {stride_am, stride_ak},
                                         {tl::program_id(0) * BM, 0}, {1, 0});
  auto b_bp = tl::make_block_ptr<BK, BN>(b, {K, N}, {stride_bk, stride_bn},
                                         {0, tl::program_id(1) * BN}, {1, 0});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    acc = tl::dot(tl::load(a_bp, {0, 1}), tl::load(b_bp, {0, 1}), acc);
    a_bp = tl::advance(a_bp, {0, BK});
    b_bp = tl::advance(b_bp, {BK, 0});
  }
  auto c_bp = tl::make_block_ptr<BM, BN>(c, {M, N}, {N, 1},
                                         {tl::program_id(0) * BM, tl::program_id(1) * BN});
  tl::store(c_bp, acc, {0, 1});
}
// IR-LABEL: kernel @strided_mm<int BM, int BN, int BK>
// IR:       tma_map %0:a, %3:M, %5:K, %6:stride_am, %7:stride_ak [BM] [BK]
// IR-NEXT:  tma_map %1:b, %5:K, %4:N, %8:stride_bk, %9:stride_bn [BK] [BN]
// The loop carries the offsets tl::advance moves, and only those; each copy starts at the
// box's offsets (cp.async of the same box where a map is not encoded).
// IR:       %{{[0-9]+}}:k_ahead, %{{[0-9]+}}:a_bp_col0, %{{[0-9]+}}:b_bp_row0 = for "<"
// IR:         tma_copy {{.*}}:a_bp_inside, {{.*}}, %{{[0-9]+}}:a_bp_row0, %{{[0-9]+}}:a_bp_col0 [0]
// IR:         tma_copy {{.*}}:b_bp_inside, {{.*}}, %{{[0-9]+}}:b_bp_row0, %{{[0-9]+}}:b_bp_col0 [1]

// H-LABEL: inline void strided_mm(
// H:       if (stride_ak == 1 && tilec::encode_tma_map(tma_maps[0], a, int(sizeof(*a)), M, K, stride_am, BM, BK))
// H:       if (stride_bn == 1 && tilec::encode_tma_map(tma_maps[1], b, int(sizeof(*b)), K, N, stride_bk, BK, BN))

// CU-LABEL: strided_mm(
// The producer warpgroup copies the boxes at the block pointers' offsets:
// CU:       const int a_bp_row0 = (program * BM);
// CU:       int a_bp_col0 = 0;
// CU:       tilec::tma_load_tile<tilec::SmemTile<BM, BK, tl::half>>(tile_next, &a_map, a_bp_row0, a_bp_col0, &landed[stage]);
// CU:       // block_pointers.cpp:21: tl::advance(a_bp, {0, BK})
// CU-NEXT:  const int a_bp_col0_{{[0-9]+}} = (a_bp_col0 + BK);
// Without it, each thread copies its part of the same box:
// CU:       a_bp_inside[i] = (((a_bp_rows[{{.*}}] >= 0) & (a_bp_rows[{{.*}}] < M)) & ((a_bp_cols[{{.*}}] >= 0) & (a_bp_cols[{{.*}}] < K)));
// CU:       (a + ((tilec::cast<int64_t>(a_bp_rows[{{.*}}]) * tilec::cast<int64_t>(stride_am)) + (tilec::cast<int64_t>(a_bp_cols[{{.*}}]) * tilec::cast<int64_t>(stride_ak))))

// Row-major operands, inner strides the literal 1: both through tensor maps, the copy's
// coordinates the block pointers' offsets.
template <int BM, int BN, int BK>
TILEC_KERNEL void rows_mm(const tl::half *a, const tl::half *b, float *c, int M, int N, int K) {
  auto a_bp = tl::make_block_ptr<BM, BK>(a, {M, K}, {K, 1}, {tl::program_id(0) * BM, 0});
  auto b_bp = tl::make_block_ptr<BK, BN>(b, {K, N}, {N, 1}, {0, tl::program_id(1) * BN});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    acc = tl::dot(tl::load(a_bp, {0, 1}), tl::load(b_bp, {0, 1}), acc);
    a_bp = tl::advance(a_bp, {0, BK});
    b_bp = tl::advance(b_bp, {BK, 0});
  }
  auto c_bp = tl::make_block_ptr<BM, BN>(c, {M, N}, {N, 1},
                                         {tl::program_id(0) * BM, tl::program_id(1) * BN});
  tl::store(c_bp, acc, {0, 1});
}
// IR-LABEL: kernel @rows_mm<int BM, int BN, int BK>
// IR:       tma_map %0:a, %3:M, %5:K, %5:K [BM] [BK]
// IR-NEXT:  tma_map %1:b, %5:K, %4:N, %4:N [BK] [BN]
// IR-NOT:   async_copy

// CU-LABEL: rows_mm(
// CU:       tilec::tma_load_tile<tilec::SmemTile<BM, BK, tl::half>>({{.*}}, &a_map, a_bp_row0, a_bp_col0, &landed[stage]);
// CU:       tilec::tma_load_tile<tilec::SmemTile<BK, BN, tl::half>>({{.*}}, &b_map, b_bp_row0, b_bp_col0, &landed[stage]);

// Only the checked dimensions are masked: rows here (columns stay inside, BN divides N by
// contract), none for the load of a box that the caller keeps inside.
template <int BM, int BN>
TILEC_KERNEL void row_checked(const float *x, float *y, int M, int N) {
  auto in = tl::make_block_ptr<BM, BN>(x, {M, N}, {N, 1}, {tl::program_id(0) * BM, 0});
  auto out = tl::make_block_ptr<BM, BN>(y, {M, N}, {N, 1}, {tl::program_id(0) * BM, 0});
  for (int n = 0; n < N; n += BN) {
    tl::store(out, tl::load(in, {0}) + 1.0f, {0});
    in = tl::advance(in, {0, BN});
    out = tl::advance(out, {0, BN});
  }
  auto first = tl::make_block_ptr<BN>(x, {N}, {1}, {0});
  tl::store(tl::make_block_ptr<BN>(y, {N}, {1}, {0}), tl::load(first) * 2.0f);
}
// CU-LABEL: row_checked(
// CU:       for (int i = 0; i < L{{[0-9]+}}::ELEMS; ++i) in_inside[i] = ((in_rows[{{.*}}] >= 0) & (in_rows[{{.*}}] < M));
// CU:       for (int i = 0; i < L{{[0-9]+}}::ELEMS; ++i) out_inside[i] = ((out_rows[{{.*}}] >= 0) & (out_rows[{{.*}}] < M));
// CU-NOT:   first_inside
// CU-NOT:   block_inside
// CU:       }

// Advanced under `if` and in a `while` loop: the branch and the loop carry the offset.
template <int B>
TILEC_KERNEL void moved_in_branches(const float *x, float *y, int n) {
  auto p = tl::make_block_ptr<B>(x, {n}, {1}, {0});
  auto q = tl::make_block_ptr<B>(y, {n}, {1}, {0});
  if (n > 3)
    p = tl::advance(p, {B});
  tl::store(q, tl::load(p, {0}), {0});
  while (n > 0) {
    p = tl::advance(p, {B});
    n -= B;
  }
  tl::store(q, tl::load(p, {0}), {0});
}
// CU-LABEL: moved_in_branches(
// CU:       int p_start = 0;
// CU:       if ((n > 3)) {
// CU:         p_start = p_start_{{[0-9]+}};
// CU:       while (
// CU:         p_start_{{[0-9]+}} = p_start_{{[0-9]+}};
