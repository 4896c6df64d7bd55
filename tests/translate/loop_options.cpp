// Loop options, Triton's keyword arguments of tl.range: `tl::range(lo, hi, step, {...})`.
// num_stages sets the kernel's pipeline stages in place of the launch's num_stages (the
// kernel's PIPELINE_STAGES and its launchers' shared memory), warp_specialize = false keeps
// every warp loading, loop_unroll_factor unrolls a loop that is not pipelined.
#include <tilec/tl.h>

// Triton's tutorial 09 with descriptors, its loop told not to specialize warps.
template <int BM, int BN, int BK>
TILEC_KERNEL void desc_options(const tl::half *a, const tl::half *b, float *c, int M, int N,
                               int K) {
  int m0 = tl::program_id(0) * BM;
  int n0 = tl::program_id(1) * BN;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k : tl::range(0, K, BK, {.warp_specialize = false, .num_stages = 4}))
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, n0}), acc);
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c, {M, N}, {N, 1});
  c_desc.store({m0, n0}, acc);
}

// The stage count from a template parameter; the same loop otherwise (warp-specialized).
template <int BM, int BN, int BK, int STAGES>
TILEC_KERNEL void desc_stages(const tl::half *a, const tl::half *b, float *c, int M, int N,
                              int K) {
  int m0 = tl::program_id(0) * BM;
  int n0 = tl::program_id(1) * BN;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k : tl::range(0, K, BK, {.num_stages = STAGES}))
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, n0}), acc);
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c, {M, N}, {N, 1});
  c_desc.store({m0, n0}, acc);
}

// A loop with no dot: unrolled by the factor; the other options are accepted.
template <int BLOCK>
TILEC_KERNEL void sum_rows(const float *x, float *out, int rows, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto acc = tl::zeros<float, BLOCK>();
  for (int r : tl::range(rows, {.loop_unroll_factor = 4, .disallow_acc_multi_buffer = true,
                                .flatten = true}))
    acc += tl::load(x + r * n + offs, offs < n, 0.0f);
  tl::store(out + offs, acc, offs < n);
}

// IR-LABEL: kernel @desc_options<int BM, int BN, int BK>
// IR:       for "<" num_stages(4) no_warp_specialize
// IR-NOT:   warp_specialized
// IR-LABEL: kernel @desc_stages<int BM, int BN, int BK, int STAGES>
// IR:       warp_specialized
// IR:       for "<" num_stages(STAGES)
// IR-LABEL: kernel @sum_rows<int BLOCK>
// IR:       for "<" unroll(4)

// CU-LABEL: desc_options(
// CU:       // Stage buffers per ring of a pipelined loop: the loop's num_stages option, at least 2
// CU-NEXT:  constexpr int PIPELINE_STAGES = (4 > 2 ? 4 : 2);
// CU-NOT:   by_producer
// CU-LABEL: desc_stages(
// CU:       constexpr int PIPELINE_STAGES = (STAGES > 2 ? STAGES : 2);
// CU:       by_producer
// CU-LABEL: sum_rows(
// CU:       #pragma unroll 4
// CU-NEXT:  for (int r = 0; r < rows; r += 1) {

// H-LABEL: inline void desc_options(
// H:       const size_t shared_bytes = size_t((4 > 2 ? 4 : 2) * (BM * (BK * 2)) + (4 > 2 ? 4 : 2) * (BK * (BN * 2)));
// H-LABEL: inline void desc_stages(
// H:       const size_t shared_bytes = size_t((STAGES > 2 ? STAGES : 2) * (BM * (BK * 2)) + (STAGES > 2 ? STAGES : 2) * (BK * (BN * 2)));
