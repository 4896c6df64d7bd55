// Warp specialization (warp-specialize, sm_90a): a pipelined tl::dot loop whose copies are all
// the copy engine's gets a producer warpgroup after the program's threads. One of its threads
// issues every stage's copies once the consumers have freed the stage; the consumers wait for
// their stage, run the dot and free it, with no barrier per iteration. Kernels whose code
// before the loop reads tiles from memory, or whose loop needs a barrier, keep the loop as it
// was.
#include <tilec/tl.h>

// Triton's tutorial 09 spelling.
template <int BM, int BN, int BK>
TILEC_KERNEL void ws_mm(const tl::half *a, const tl::half *b, float *c, int M, int N, int K) {
  int m0 = tl::program_id(0) * BM;
  int n0 = tl::program_id(1) * BN;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, n0}), acc);
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c, {M, N}, {N, 1});
  c_desc.store({m0, n0}, acc);
}

// IR-LABEL: kernel @ws_mm<int BM, int BN, int BK>
// IR:       [[LANDED:%[0-9]+]]:landed = mbarrier_ring : smem<int64_t, PIPELINE_STAGES>
// IR:       [[FREED:%[0-9]+]]:freed = freed_ring : smem<int64_t, PIPELINE_STAGES>
// IR-NEXT:  [[WS:%[0-9]+]]:by_producer = warp_specialized [[LANDED]]:landed, [[FREED]]:freed : bool
// IR-NEXT:  [[P:%[0-9]+]]:producer = producer_thread [[WS]]:by_producer : bool
// IR-NEXT:  producer_branch
// IR-NEXT:  {
// IR-NEXT:    if [[P]]:producer
// IR-NEXT:    {
// IR:           for "<"
// IR:             mbarrier_wait [[FREED]]:freed, [[STAGE:%[0-9]+]]:stage, %{{[0-9]+}}:freed_parity
// IR-NOT:         tma_copy
// IR:             tma_load %{{[0-9]+}}:tile_next, [[LANDED]]:landed, [[STAGE]]:stage, %{{[0-9]+}}:m0, %{{[0-9]+}}:k_ahead [0]
// IR:             tma_load %{{[0-9]+}}:tile_next, [[LANDED]]:landed, [[STAGE]]:stage, %{{[0-9]+}}:k_ahead, %{{[0-9]+}}:n0 [1]
// IR-NEXT:        mbarrier_arrive [[LANDED]]:landed, [[STAGE]]:stage
// The consumers' loop: no cp.async wait, no barrier, no copy; each stage freed after its dot.
// IR:       if [[WS]]:by_producer
// IR-NEXT:  {
// IR-NEXT:    {{.*}} = for "<"
// IR-NEXT:    {
// IR-NEXT:      ^(
// IR-NEXT:      mbarrier_wait [[LANDED]]:landed, [[READ:%[0-9]+]]:read_stage
// IR-NOT:       barrier
// IR:           dot
// IR-NEXT:      mbarrier_release [[FREED]]:freed, [[READ]]:read_stage
// IR-NOT:       barrier
// IR:         }
// IR:       } else {
// The loop that copies, for when a map is not encoded or TILEC_WARP_SPECIALIZE=0.
// IR:         async_wait [[LANDED]]:landed [PIPELINE_STAGES - 2]
// IR-NEXT:    mbarrier_wait
// IR-NEXT:    barrier
// IR:         tma_copy

// CU-LABEL: // Warp-specialized: a producer warpgroup of tilec::producer_threads(THREADS) threads follows the
// CU-NEXT:  // program's THREADS and issues the copies of its pipelined loop.
// CU-NEXT:  __global__ void __launch_bounds__(NUM_WARPS * tilec::WARP_SIZE + tilec::producer_threads(NUM_WARPS * tilec::WARP_SIZE), tilec::ws_min_blocks(NUM_WARPS * tilec::WARP_SIZE))
// CU-NEXT:  ws_mm(
// CU:       __shared__ unsigned long long freed[PIPELINE_STAGES];
// CU:       const bool by_producer = tilec::producer_threads(THREADS) > 0 && landed_all_tma && (all_maps_encoded || ((tma_maps_live >> 31) & 1u));
// CU-NEXT:  if (by_producer) {
// CU-NEXT:    if (tid == 0) {
// CU-NEXT:      for (int s = 0; s < PIPELINE_STAGES; ++s) tilec::mbarrier_init(&freed[s], NUM_WARPS);
// CU:       const bool producer = by_producer && tid == THREADS;
// CU:       if (tid >= THREADS) {
// CU-NEXT:    tilec::producer_give_registers<THREADS>();
// CU:         if (producer) {
// CU:           for (int k_ahead = 0; k_ahead < K; k_ahead += BK) {
// CU:             tilec::mbarrier_wait(&freed[stage], freed_parity);
// CU:             tilec::tma_load_tile<tilec::SmemTile<BM, BK, tl::half>>(tile_next, &a_map, m0, k_ahead, &landed[stage]);
// CU:             tilec::tma_load_tile<tilec::SmemTile<BK, BN, tl::half>>(tile_next_1, &b_map, k_ahead, n0, &landed[stage]);
// CU:             tilec::mbarrier_arrive(&landed[stage]);
// CU:         return;
// CU-NEXT:  }
// CU-NEXT:  tilec::consumer_take_registers<THREADS>();
// CU:       if (by_producer) {
// CU:         for (int k = 0; k < K; k += BK) {
// CU-NOT:       __syncthreads
// CU:           tilec::dot_smem<
// CU-NEXT:      // warp_specialize.cpp:{{[0-9]+}}: this warp is done reading the stage
// CU-NEXT:      if (tid % tilec::WARP_SIZE == 0) tilec::mbarrier_arrive(&freed[read_stage]);
// CU-NOT:       __syncthreads
// CU:       } else {

// H-LABEL: inline void ws_mm(
// H:       // bit 31: the producer warpgroup may issue the copies
// H-NEXT:  if (tilec::warp_specialization_allowed())
// H-NEXT:    tma_maps_live |= 1u << 31;
// H:       kernel.launch(key, grid, options.num_warps * 32 + (options.num_warps * 32 + 128 <= 1024 ? 128 : 0), shared_bytes, stream, params, persistent);

// A bias tile read before the loop: every thread would read it, the producer's too, at
// addresses its threads do not own. The loop stays as it was.
template <int BM, int BN, int BK>
TILEC_KERNEL void bias_mm(const tl::half *a, const tl::half *b, const float *bias, float *c, int M,
                          int N, int K) {
  int m0 = tl::program_id(0) * BM;
  int n0 = tl::program_id(1) * BN;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto cols = n0 + tl::arange<0, BN>();
  auto acc = tl::broadcast_to<BM, BN>(tl::expand_dims<0>(tl::load(bias + cols, cols < N, 0.0f)));
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, n0}), acc);
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c, {M, N}, {N, 1});
  c_desc.store({m0, n0}, acc);
}

// IR-LABEL: kernel @bias_mm<int BM, int BN, int BK>
// IR:       mbarrier_ring
// IR-NOT:   warp_specialized
// IR-NOT:   producer_branch
// IR:       mbarrier_inval

// H-LABEL: inline void bias_mm(
// H-NOT:   warp_specialization_allowed
// H:       kernel.launch(key, grid, options.num_warps * 32, shared_bytes, stream, params);
