// Loads beside the tl::dot operands of a pipelined loop (pipeline, lower-pipeline): rank-1
// tiles of 4- or 8-byte elements that anything reads are staged with the dot operands, and
// their users read them from the stage in the layout each wants (stage_read), so a row
// statistic the dot's result needs costs neither a load's latency nor a layout conversion.
// An attention backward's dK/dV loop reads two such rows per block of queries.
//
// Left in registers: 2-byte elements (cp.async copies 4 bytes at least), a load whose `other`
// is not zero, and a load that a staged operand's address is computed from.
#include <tilec/tl.h>

template <int BM, int BN, int D>
TILEC_KERNEL void rows_kernel(const tl::half *q, const tl::half *k, const float *m,
                              const double *d, float *out, int n) {
  auto offs_n = tl::program_id(0) * BN + tl::arange<0, BN>();
  auto offs_d = tl::arange<0, D>();
  auto k_tile = tl::load(k + tl::expand_dims<1>(offs_n) * D + tl::expand_dims<0>(offs_d),
                         tl::expand_dims<1>(offs_n) < n, 0.0f);
  auto acc = tl::zeros<float, BN, BM>();
  for (int start = 0; start < n; start += BM) {
    auto offs_m = start + tl::arange<0, BM>();
    auto q_t = tl::load(q + tl::expand_dims<0>(offs_m) * D + tl::expand_dims<1>(offs_d),
                        tl::expand_dims<0>(offs_m) < n, 0.0f);
    auto row_max = tl::load(m + offs_m, offs_m < n, 0.0f);
    auto row_sum = tl::load(d + offs_m, offs_m < n);
    auto s = tl::dot(k_tile, q_t);
    acc += tl::exp2(s - tl::expand_dims<0>(row_max)) * tl::expand_dims<0>(tl::cast<float>(row_sum));
  }
  tl::store(out + tl::expand_dims<1>(offs_n) * BM + tl::expand_dims<0>(tl::arange<0, BM>()), acc,
            tl::expand_dims<1>(offs_n) < n);
}

// The rings: the dot operand's first (q_t, loaded along its contiguous axis), the rows' after
// it; the row the dot's result reads comes off its stage in the dot's layout (#8, a slice of
// the mma layout #0), with no conversion.
// IR-LABEL: kernel @rows_kernel<int BM, int BN, int D>
// IR:       :q_t_rows_stages = smem_ring : smem<tl::half, PIPELINE_STAGES, BM, D>
// IR-NEXT:  :row_max_stages = smem_ring : smem<float, PIPELINE_STAGES, BM>
// IR-NEXT:  :row_sum_stages = smem_ring : smem<double, PIPELINE_STAGES, BM>
// IR:       async_copy %{{[0-9]+}}:row_max_next, {{.*}}
// IR:       async_copy %{{[0-9]+}}:row_sum_next, {{.*}}
// IR:       async_copy %{{[0-9]+}}:row_max_next, {{.*}}
// IR:       async_copy %{{[0-9]+}}:row_sum_next, {{.*}}
// IR:       [[MAX:%[0-9]+]]:row_max_stage = stage_view %{{[0-9]+}}:row_max_stages, %{{[0-9]+}}:read_stage : smem<float, BM>
// IR-NEXT:  [[ROW:%[0-9]+]]:row_max = stage_read [[MAX]]:row_max_stage : tile<float, BM> #8
// IR:       :row_sum = stage_read %{{[0-9]+}}:row_sum_stage : tile<double, BM>
// IR:       expand_dims [[ROW]]:row_max [0] : tile<float, 1, BM> #8
// IR:       async_wait [0]

// CU-LABEL: rows_kernel(const tl::half* q, const tl::half* k, const float* m, const double* d, float* out, int n, const __grid_constant__ tilec::TmaMap q_map, const unsigned tma_maps_live) {
// CU:       // row_max_stages: PIPELINE_STAGES stage buffers of [BM], copied into ahead of the iteration that reads them (smem_ring)
// CU:       tilec::copy_run_async<
// CU:       float* const row_max_stage = row_max_stages + read_stage * BM;
// CU-NEXT:  // row_max: read from its stage in layout [[L:L[0-9]+]]
// CU-NEXT:  float row_max{{\[}}[[L]]::ELEMS];
// CU-NEXT:  tilec::read_stage<[[L]]>(row_max_stage, row_max, tid);

template <int BM, int BN, int D>
TILEC_KERNEL void kept_kernel(const tl::half *q, const tl::half *k, const tl::half *h,
                              const float *f, const int *idx, float *out, int n) {
  auto offs_n = tl::program_id(0) * BN + tl::arange<0, BN>();
  auto offs_d = tl::arange<0, D>();
  auto k_tile = tl::load(k + tl::expand_dims<1>(offs_n) * D + tl::expand_dims<0>(offs_d));
  auto acc = tl::zeros<float, BN, BM>();
  for (int start = 0; start < n; start += BM) {
    auto offs_m = start + tl::arange<0, BM>();
    // The rows of q are gathered through idx: idx is read where the copies are issued.
    auto rows = tl::load(idx + offs_m, offs_m < n, 0);
    auto q_t = tl::load(q + tl::expand_dims<0>(rows) * D + tl::expand_dims<1>(offs_d));
    auto narrow = tl::load(h + offs_m, offs_m < n, 0.0f);
    auto ones = tl::load(f + offs_m, offs_m < n, 1.0f);
    acc += tl::dot(k_tile, q_t) * tl::expand_dims<0>(tl::cast<float>(narrow) * ones);
  }
  tl::store(out + tl::expand_dims<1>(offs_n) * BM + tl::expand_dims<0>(tl::arange<0, BM>()), acc);
}

// IR-LABEL: kernel @kept_kernel<int BM, int BN, int D>
// IR:       :q_t_rows_stages = smem_ring : smem<tl::half, PIPELINE_STAGES, BM, D>
// IR-NOT:   smem_ring
// IR:       :rows = load
// IR:       async_copy %{{[0-9]+}}:q_t_rows_next
// IR-NOT:   stage_read
// IR:       :narrow = load
// IR:       :ones = load
// IR:       async_wait [0]
