// A tile stored transposed that tl::dot reads both as it is and through trans (an attention
// backward's Q^T: Q K^T and dS^T Q; its dQ kernel's K^T the same way). transpose-loads loads it
// along its contiguous axis ([BM, D] rows of 16 bytes, not one element per access); the trans
// of the tile becomes that row-major load itself, the other dot reads it transposed
// (fuse-dot-transpose), and the pipeline stages it with 16-byte copies.
#include <tilec/tl.h>

template <int BM, int BN, int D>
TILEC_KERNEL void dk_kernel(const tl::half *q, const tl::half *k, float *dk, int n) {
  auto offs_n = tl::program_id(0) * BN + tl::arange<0, BN>();
  auto offs_d = tl::arange<0, D>();
  auto k_tile = tl::load(k + tl::expand_dims<1>(offs_n) * D + tl::expand_dims<0>(offs_d),
                         tl::expand_dims<1>(offs_n) < n, 0.0f);
  auto acc = tl::zeros<float, BN, D>();
  for (int start = 0; start < n; start += BM) {
    auto offs_m = start + tl::arange<0, BM>();
    auto q_t = tl::load(q + tl::expand_dims<0>(offs_m) * D + tl::expand_dims<1>(offs_d),
                        tl::expand_dims<0>(offs_m) < n, 0.0f);
    auto s = tl::dot(k_tile, q_t);
    acc = tl::dot(tl::cast<tl::half>(s), tl::trans(q_t), acc);
  }
  tl::store(dk + tl::expand_dims<1>(offs_n) * D + tl::expand_dims<0>(offs_d), acc,
            tl::expand_dims<1>(offs_n) < n);
}

// IR-LABEL: IR after fuse-dot-transpose
// IR:       [[ROWS:%[0-9]+]]:q_t_rows = load {{.*}} : tile<tl::half, BM, D>
// IR-NOT:   trans
// IR:       dot "tf32" b^T %{{[0-9]+}}:k_tile, [[ROWS]]:q_t_rows, {{.*}} : tile<float, BN, BM>
// IR-NOT:   trans
// IR:       dot "tf32" %{{[0-9]+}}, [[ROWS]]:q_t_rows, {{.*}} : tile<float, BN, D>

// CU-LABEL: dk_kernel(const tl::half* q, const tl::half* k, float* dk, int n, const __grid_constant__ tilec::TmaMap q_map, const unsigned tma_maps_live) {
// CU:       // q_t_rows_stages: PIPELINE_STAGES stage buffers of [BM, D], copied into ahead of the tl::dot that reads them (smem_ring)
// CU:       tilec::copy_tile_async<{{.*}}tilec::SmemTile<BM, D, tl::half>>(q_t_rows_next
