// Persistent programs (persistent-programs, sm_90a): a warp-specialized kernel runs the
// programs of its grid in turn in each block. The launcher passes the grid's x as `programs`
// and, when the producer warpgroup loads, starts only as many blocks as the GPU holds; the
// producer then copies for a block's next program while its consumers store the last one.
// Kernels that read tl::num_programs, or whose epilogue needs the whole block (a reduction
// across threads), keep one program per block.
#include <tilec/tl.h>

// Triton's tutorial 03 order: a 1-D grid, programs grouped GROUP_M rows of tiles at a time.
template <int BM, int BN, int BK, int GROUP_M>
TILEC_KERNEL void grouped_mm(const tl::half *a, const tl::half *b, tl::half *c, int M, int N,
                             int K) {
  int pid = tl::program_id(0);
  int num_pid_m = tl::cdiv(M, BM);
  int num_pid_n = tl::cdiv(N, BN);
  int group = GROUP_M * num_pid_n;
  int first_m = pid / group * GROUP_M;
  int size_m = tl::minimum(num_pid_m - first_m, GROUP_M);
  int m0 = (first_m + pid % group % size_m) * BM;
  int n0 = pid % group / size_m * BN;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, n0}), acc);
  auto rows = m0 + tl::arange<0, BM>();
  auto cols = n0 + tl::arange<0, BN>();
  tl::store(c + tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols), tl::cast<tl::half>(acc),
            (tl::expand_dims<1>(rows) < M) && (tl::expand_dims<0>(cols) < N));
}

// Both loops over the programs start at program_id(0) and step by num_programs(0); the
// program's values (here m0 and n0) are recomputed in each, from %program.
// IR-LABEL: kernel @grouped_mm<int BM, int BN, int BK, int GROUP_M>
// IR-NOT:   program_id
// IR:       [[FIRST:%[0-9]+]]:first_program = program_id axis=0 : int
// IR-NEXT:  [[PROGRAMS:%[0-9]+]] = programs : int
// IR-NEXT:  [[BLOCKS:%[0-9]+]]:blocks = num_programs axis=0 : int
// IR-NEXT:  producer_branch
// IR:         for "<" [[FIRST]]:first_program, [[PROGRAMS]], [[BLOCKS]]:blocks, [[S0:%[0-9]+]], [[S0]]
// IR-NEXT:    {
// IR-NEXT:      ^([[P:%[0-9]+]]:program : int, [[RS:%[0-9]+]]:ring_stage : int, [[RP:%[0-9]+]]:ring_phase : int)
// IR:           binary "/" [[P]]:program
// IR:           [[STAGE:%[0-9]+]]:stage, [[PHASE:%[0-9]+]]:phase = for "<" {{.*}}, [[RS]]:ring_stage, [[RP]]:ring_phase
// IR:             tma_load
// IR:           yield [[STAGE]]:stage, [[PHASE]]:phase
// The consumers' loop over the programs: the choice, then the epilogue, for each.
// IR:       for "<" [[FIRST]]:first_program, [[PROGRAMS]], [[BLOCKS]]:blocks
// IR-NEXT:  {
// IR-NEXT:    ^([[CP:%[0-9]+]]:program : int, [[CS:%[0-9]+]]:ring_stage : int, [[CPH:%[0-9]+]]:ring_phase : int)
// IR:         binary "/" [[CP]]:program
// IR:         if %{{[0-9]+}}:by_producer, %{{[0-9]+}}:acc, [[CS]]:ring_stage, [[CPH]]:ring_phase
// IR:           mbarrier_wait %{{[0-9]+}}:landed, %{{[0-9]+}}:read_stage, %{{[0-9]+}}:phase
// IR:         } else {
// IR:           async_wait %{{[0-9]+}}:landed [0]
// IR-NEXT:      mbarrier_restart %{{[0-9]+}}:landed
// IR-NEXT:      yield %{{[0-9]+}}:acc, [[CS]]:ring_stage, [[CPH]]:ring_phase
// IR:         store
// IR-NEXT:    yield %{{[0-9]+}}:ring_stage_after, %{{[0-9]+}}:ring_phase_after
// IR-NEXT:  }
// IR-NEXT:  async_wait %{{[0-9]+}}:landed [0]
// IR-NEXT:  barrier
// IR-NEXT:  mbarrier_inval

// CU-LABEL: grouped_mm(
// CU-SAME:  const unsigned tma_maps_live, const int programs) {
// CU:       const int first_program = int(blockIdx.x);
// CU-NEXT:  const int blocks = int(gridDim.x);
// CU:       if (producer) {
// CU:         int ring_stage = 0;
// CU:         for (int program = first_program; program < programs; program += blocks) {
// CU:           int stage = ring_stage;
// CU:           tilec::mbarrier_wait(&freed[stage], freed_parity);
// CU:           ring_stage = stage;
// CU:       tilec::consumer_take_registers<THREADS>();
// CU:       for (int [[PROG:program_[0-9]+]] = first_program; [[PROG]] < programs; [[PROG]] += blocks) {
// CU:         tilec::mbarrier_wait(&landed[
// CU:         tilec::mbarrier_arrive(&freed[
// Without the producer, each program starts from empty stages and fresh mbarriers.
// CU:         // persistent_programs.cpp:{{[0-9]+}}: the next program's copies start from empty stages
// CU-NEXT:    __syncthreads();
// CU-NEXT:    if (landed_in_use) {
// CU-NEXT:      if (tid == 0) {
// CU-NEXT:        for (int s = 0; s < PIPELINE_STAGES; ++s) {
// CU-NEXT:          tilec::mbarrier_inval(&landed[s]);
// CU-NEXT:          tilec::mbarrier_init(&landed[s]);
// The epilogue: the quads' 16-byte runs (where the pointers and mask allow) or pairs.
// CU:         if constexpr (quad_runs) {
// CU-NEXT:      tilec::store_quad_runs<L0>(
// CU:         } else {
// CU:           tilec::store_vec<
// CU:       // persistent_programs.cpp:{{[0-9]+}}: no copy is in flight

// The launcher: programs is the grid's x; the launch is persistent when every map is encoded
// and the producer warpgroup may load.
// H-LABEL: inline void grouped_mm(
// H:       int programs = int(grid.x);
// H-NEXT:  const bool persistent = (tma_maps_live & (3u | 1u << 31)) == (3u | 1u << 31);
// H-NEXT:  void* params[] = {{.*}}, (void*)&tma_maps_live, (void*)&programs};
// H:       kernel.launch(key, grid, {{.*}}, shared_bytes, stream, params, persistent);

// tl::num_programs(0) would change under a persistent launch: one program per block.
template <int BM, int BN, int BK>
TILEC_KERNEL void reads_grid_mm(const tl::half *a, const tl::half *b, float *c, int M, int N,
                                int K) {
  int m0 = tl::program_id(0) % tl::num_programs(0) * BM;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, 0}), acc);
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c, {M, N}, {N, 1});
  c_desc.store({m0, 0}, acc);
}

// IR-LABEL: kernel @reads_grid_mm<int BM, int BN, int BK>
// IR:       producer_branch
// IR-NOT:   programs :
// IR:       mbarrier_inval
// H-LABEL: inline void reads_grid_mm(
// H-NOT:   &programs
// H:       kernel.launch(key, grid, {{.*}}, shared_bytes, stream, params);

// Row sums in the epilogue reduce across the block's threads: one program per block.
template <int BM, int BN, int BK>
TILEC_KERNEL void row_sum_mm(const tl::half *a, const tl::half *b, float *rows_out, int M, int N,
                             int K) {
  int m0 = tl::program_id(0) * BM;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, 0}), acc);
  auto rows = m0 + tl::arange<0, BM>();
  tl::store(rows_out + rows, tl::sum<1>(acc), rows < M);
}

// IR-LABEL: kernel @row_sum_mm<int BM, int BN, int BK>
// IR:       producer_branch
// IR-NOT:   programs :
// IR:       mbarrier_inval
