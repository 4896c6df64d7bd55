// Stores by the copy engine (tma-stores, sm_90a): in a warp-specialized kernel, the store of a
// tl::dot result that writes one box of a matrix goes through a shared-memory buffer of its
// own to the copy engine, which finishes it while the block goes on to its next program. The
// store as written stays beside it, for launches where the map is not encoded, the box starts
// before (0, 0), or the block runs a single program.
#include <tilec/tl.h>

// Tutorial 03's grouped order, C in halves, stored through a pointer tile.
template <int BM, int BN, int BK, int GROUP_M>
TILEC_KERNEL void stored_mm(const tl::half *a, const tl::half *b, tl::half *c, int M, int N,
                            int K) {
  int pid = tl::program_id(0);
  int group = GROUP_M * tl::cdiv(N, BN);
  int first_m = pid / group * GROUP_M;
  int size_m = tl::minimum(tl::cdiv(M, BM) - first_m, GROUP_M);
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

// A third map, for C; the buffer after the stages (when it fits), the condition that the block
// runs more than one program, and the drain after the programs' loop. The copy is compiled
// only into the specialization for launches that encoded every map (all_maps_encoded): in the
// other, both epilogues would hold registers at once.
// IR-LABEL: kernel @stored_mm<int BM, int BN, int BK, int GROUP_M>
// IR:       dynamic_smem [{{.*}} + ((((PIPELINE_STAGES * (BM * (BK * 2)) + PIPELINE_STAGES * (BK * (BN * 2))) + 1023) / 1024 * 1024 + BM * (BN * 2)) <= 230400 ? (BM * (BN * 2)) : 0)]
// IR:       tma_map %2:c, %3:M, %4:N, %4:N [BM] [BN]
// IR:       [[PROGRAMS:%[0-9]+]] = programs : int
// IR-NEXT:  [[BLOCKS:%[0-9]+]]:blocks = num_programs axis=0 : int
// IR-NEXT:  [[SEVERAL:%[0-9]+]]:blocks_run_several = binary ">" [[PROGRAMS]], [[BLOCKS]]:blocks : bool
// IR:         [[BUF:%[0-9]+]]:c_staged = smem_buffer [{{.*}}] : smem<tl::half, BM, BN>
// IR-NEXT:    tma_store quad_runs {{.*}}, [[BUF]]:c_staged, %{{[0-9]+}}:m0, %{{[0-9]+}}:n0, [[SEVERAL]]:blocks_run_several [2] [{{.*}} <= 230400)]
// IR-NOT:     store
// IR:       tma_store_drain
// IR-NEXT:  async_wait

// CU-LABEL: stored_mm(
// CU-SAME:  const __grid_constant__ tilec::TmaMap c_map, const unsigned tma_maps_live, const int programs) {
// CU:       const bool blocks_run_several = (programs > blocks);
// CU:         tl::half* const c_staged = reinterpret_cast<tl::half*>(dsmem +
// CU:         constexpr bool c_staged_fits = {{.*}} <= 230400) && tilec::tma_tile_ok<tilec::SmemTile<BM, BN, tl::half>>(
// CU-NEXT:    // by the copy engine into c_map through c_staged when every map is encoded and the box starts inside (and the block runs several programs), else as written
// CU-NEXT:    if (tilec::kTmaAvailable && c_staged_fits && all_maps_encoded && [[M0:m0_[0-9]+]] >= 0 && [[N0:n0_[0-9]+]] >= 0 && blocks_run_several) {
// CU-NEXT:      tilec::tma_store_tile<L0, tilec::SmemTile<BM, BN, tl::half>, THREADS>(&{{t[0-9]+}}[0], c_staged, &c_map, [[M0]], [[N0]], tid);
// CU-NEXT:    } else {
// CU:             tilec::store_quad_runs<L0>(
// CU:       // the copy engine has read the tiles this program stored
// CU-NEXT:  tilec::tma_store_drain(tid);

// The launcher encodes C's map too; the launch stays persistent without it (the store then
// runs as written), so persistence asks only for the maps the producer loads from.
// H-LABEL: inline void stored_mm(
// H:       if (tilec::encode_tma_map(tma_maps[2], c, int(sizeof(*c)), M, N, N, BM, BN))
// H:       const bool persistent = (tma_maps_live & (3u | 1u << 31)) == (3u | 1u << 31);

// A template element type: the buffer is allocated for elements of at most 2 bytes.
template <int BM, int BN, int BK, class T>
TILEC_KERNEL void typed_mm(const tl::half *a, const tl::half *b, T *c, int M, int N, int K) {
  int m0 = tl::program_id(0) * BM;
  int n0 = tl::program_id(1) * BN;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, n0}), acc);
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c, {M, N}, {N, 1});
  c_desc.store({m0, n0}, tl::cast<T>(acc));
}

// IR-LABEL: kernel @typed_mm<int BM, int BN, int BK, class T>
// IR:       dynamic_smem [{{.*}} + (sizeof(T) <= 2 && {{.*}} <= 230400 ? (BM * (BN * sizeof(T))) : 0)]
// IR:       tma_store quad_runs {{.*}} [2] [(sizeof(T) <= 2 && {{.*}} <= 230400)]

// Float results stay stores from registers (a 128 x 256 buffer of floats would take 128 KB).
template <int BM, int BN, int BK>
TILEC_KERNEL void float_mm(const tl::half *a, const tl::half *b, float *c, int M, int N, int K) {
  int m0 = tl::program_id(0) * BM;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, 0}), acc);
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c, {M, N}, {N, 1});
  c_desc.store({m0, 0}, acc);
}

// IR-LABEL: kernel @float_mm<int BM, int BN, int BK>
// IR-NOT:   tma_store
// IR:       store quad_runs
// IR-NOT:   tma_store

// A global access after the store (here a flag the program sets): the copy would still be
// in flight, so the store stays as written.
template <int BM, int BN, int BK>
TILEC_KERNEL void flagged_mm(const tl::half *a, const tl::half *b, tl::half *c, int *done,
                             int M, int N, int K) {
  int m0 = tl::program_id(0) * BM;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, 0}), acc);
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c, {M, N}, {N, 1});
  c_desc.store({m0, 0}, tl::cast<tl::half>(acc));
  tl::atomic_add(done, 1);
}

// IR-LABEL: kernel @flagged_mm<int BM, int BN, int BK>
// IR-NOT:   tma_store
// IR:       store quad_runs
// IR-NOT:   tma_store
// IR:       atomic "add"

// A store in a loop of the program (here it runs `times` times): the next iteration's accesses
// would follow a copy still in flight, so it stays as written.
template <int BM, int BN, int BK>
TILEC_KERNEL void looped_mm(const tl::half *a, const tl::half *b, tl::half *c, int M, int N,
                            int K, int times) {
  int m0 = tl::program_id(0) * BM;
  auto a_desc = tl::make_tensor_descriptor<BM, BK>(a, {M, K}, {K, 1});
  auto b_desc = tl::make_tensor_descriptor<BK, BN>(b, {K, N}, {N, 1});
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK)
    acc = tl::dot(a_desc.load({m0, k}), b_desc.load({k, 0}), acc);
  auto c_desc = tl::make_tensor_descriptor<BM, BN>(c, {M, N}, {N, 1});
  for (int t = 0; t < times; ++t)
    c_desc.store({m0, 0}, tl::cast<tl::half>(acc));
}

// IR-LABEL: kernel @looped_mm<int BM, int BN, int BK>
// IR:       warp_specialized
// IR-NOT:   tma_store
// IR:       store quad_runs
// IR-NOT:   tma_store
