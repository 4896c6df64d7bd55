// tl::dot loops spelled the ways users write them get the same schedule as the matmul
// example: K offsets recomputed from the loop index (each operand's layout recomputes them:
// no conversion is left to stop pipelining); B stored [N, K] and read as a [BK, BN] tile
// (loaded as [BN, BK] rows and read transposed by the tensor cores), also through pointer
// tiles the loop advances (carried transposed); a unit stride given as a
// template parameter (vector loads when it is 1); a loop-invariant operand (staged once,
// before the loop); row statistics of a product (reduced where the tensor cores left it); a
// product of a product (read by the tensor cores from the registers it is in: a:regs).
#include <tilec/tl.h>

template <int BM, int BN, int BK, int SK>
TILEC_KERNEL void spelled(const tl::half *x, const tl::half *w, float *y, int k) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int kb = 0; kb < k / BK; ++kb) {
    auto rk = kb * BK + tl::arange<0, BK>();
    auto xv = tl::load(x + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk) * SK);
    auto wv = tl::load(w + tl::expand_dims<0>(rn) * k + tl::expand_dims<1>(rk));
    acc = tl::dot(xv, wv, acc);
  }
  tl::store(y + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}

template <int BM, int BN, int BK>
TILEC_KERNEL void advancing(const tl::half *x, const tl::half *w, float *y, int k) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto x_ptrs = x + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk);
  auto w_ptrs = w + tl::expand_dims<0>(rn) * k + tl::expand_dims<1>(rk);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    acc = tl::dot(tl::load(x_ptrs), tl::load(w_ptrs), acc);
    x_ptrs += BK;
    w_ptrs += BK;
  }
  tl::store(y + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}

template <int BM, int BN>
TILEC_KERNEL void row_stats(const tl::half *q, const tl::half *kt, float *out, int n) {
  auto rm = tl::arange<0, BM>();
  auto rd = tl::arange<0, 64>();
  auto qv = tl::load(q + tl::expand_dims<1>(rm) * 64 + tl::expand_dims<0>(rd));
  auto best = tl::full<float, BM>(-INFINITY);
  auto twice = tl::zeros<float, BM, 64>();
  for (int n0 = 0; n0 < n; n0 += BN) {
    auto cols = n0 + tl::arange<0, BN>();
    auto s = tl::dot(qv, tl::load(kt + tl::expand_dims<1>(rd) * n + tl::expand_dims<0>(cols)));
    best = tl::maximum(best, tl::max<1>(s - tl::expand_dims<1>(tl::sum<1>(s))));
    auto v = tl::load(kt + tl::expand_dims<1>(tl::arange<0, BN>()) * 64 + tl::expand_dims<0>(rd));
    twice = tl::dot(tl::cast<tl::half>(s), v, twice);
  }
  tl::store(out + rm, best);
  tl::store(out + tl::expand_dims<1>(rm) * 64 + tl::expand_dims<0>(rd), twice);
}

// IR-LABEL: kernel @spelled
// IR:       layout #[[MMA:[0-9]+]] mma[BM, BN]
// IR-NEXT:  layout #{{[0-9]+}} blocked[BM, BK] max_vec={{.*}}(SK) == 1 ? BK : 1)
// IR:       = for "<" pipelined
// IR-NOT:   convert_layout
// IR:       %{{[0-9]+}}:rk = binary "+" producer
// IR:       %{{[0-9]+}}:rk = binary "+" producer
// IR:       %[[X:[0-9]+]]:xv = load async producer {{.*}} : tile<tl::half, BM, BK>
// IR:       %[[W:[0-9]+]]:wv_rows = load async producer {{.*}} : tile<tl::half, BN, BK>
// IR:       = dot "tf32" b^T %[[X]]:xv, %[[W]]:wv_rows, %{{[0-9]+}}:acc : tile<float, BM, BN> #[[MMA]]
// IR-LABEL: kernel @advancing
// IR:       = for "<" pipelined producer_carried(1, 2)
// IR:       ^(%{{[0-9]+}}:k0 : int, %{{[0-9]+}}:acc : tile<float, BM, BN> #{{[0-9]+}}, %{{[0-9]+}}:x_ptrs : tile<const tl::half*, BM, BK> #{{[0-9]+}}{{.*}}, %[[W:[0-9]+]]:w_ptrs : tile<const tl::half*, BN, BK>
// IR:       %[[L:[0-9]+]] = load async producer %[[W]]:w_ptrs : tile<tl::half, BN, BK>
// IR:       = dot "tf32" b^T %{{[0-9]+}}, %[[L]], %{{[0-9]+}}:acc
// IR:       = addptr producer %[[W]]:w_ptrs, %{{[0-9]+}} : tile<const tl::half*, BN, BK>
// IR-LABEL: kernel @row_stats
// IR:       layout #[[MMA2:[0-9]+]] mma[BM, BN]
// IR:       %[[Q:[0-9]+]]:qv = local_alloc %{{[0-9]+}}:qv : smem<tl::half, BM, 64>
// IR-NEXT:  = for "<" pipelined
// IR:       = dot "tf32" %[[Q]]:qv, %{{[0-9]+}}, %{{[0-9]+}} : tile<float, BM, BN> #[[MMA2]]
// IR-NOT:   convert_layout
// IR:       = reduce "sum" %{{[0-9]+}}:s [1] : tile<float, BM> #[[ROWS:[0-9]+]]
// IR-NOT:   convert_layout
// IR:       = reduce "max" %{{[0-9]+}} [1] : tile<float, BM> #[[ROWS]]
// IR:       = dot "tf32" a:regs %{{[0-9]+}}, %{{[0-9]+}}:v, %{{[0-9]+}}:twice

// CU-LABEL: spelled(
// CU:       tilec::copy_tile_async<
// CU:       tilec::copy_tile_async<
// CU:       tilec::dot_smem<L{{[0-9]+}}, tilec::SmemTile<BM, BK, tl::half>, tilec::SmemTile<BN, BK, tl::half>, tilec::DotTf32, false, true>(
// CU-LABEL: row_stats(
// CU:       copied to shared memory once for the tensor cores (local_alloc)
// CU-NEXT:  tl::half* const [[QS:[a-z_0-9]+]] = reinterpret_cast<tl::half*>(dsmem +
// CU-NEXT:  tilec::store_to_smem<
// CU-NEXT:  __syncthreads();
// CU:       for (int
// CU:       tilec::dot_smem<{{.*}}>([[QS]], {{.*}});
// CU-NOT:   __syncthreads(); // the scratch buffer is free again
// CU:       tilec::reduce_axis_mma<L{{[0-9]+}}, 1>(
// CU:       tilec::dot_regs_a<L{{[0-9]+}}, L{{[0-9]+}}, tilec::SmemTile<BN, 64, tl::half>, tilec::DotTf32>(
