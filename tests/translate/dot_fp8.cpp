// fp8: a pipelined tl::dot of e4m3 operands with a float accumulator, its result rounded to
// e5m2 on the way out; fp8 arithmetic computes in float (casts first), fp8 loads and stores
// move bytes. The tensor cores need sm_89 or newer (tests/nvrtc expects sm_80 to refuse it).
#include <tilec/tl.h>

template <int BM, int BN, int BK>
TILEC_KERNEL void fp8_matmul(const tl::float8_e4m3 *a, const tl::float8_e4m3 *b, tl::float8_e5m2 *c,
                             float scale, int m, int n, int k) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk);
  auto b_ptrs = b + tl::expand_dims<1>(rk) * n + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto av = tl::load(a_ptrs, tl::expand_dims<0>(rk) < k - k0, 0.0f);
    auto bv = tl::load(b_ptrs, tl::expand_dims<1>(rk) < k - k0, 0.0f);
    acc = tl::dot(av, bv, acc);
    a_ptrs += BK;
    b_ptrs += BK * n;
  }
  auto mask = (tl::expand_dims<1>(rm) < m) & (tl::expand_dims<0>(rn) < n);
  tl::store(c + tl::expand_dims<1>(rm) * n + tl::expand_dims<0>(rn), acc * scale, mask);
}

template <int BLOCK>
TILEC_KERNEL void fp8_elementwise(const tl::float8_e5m2 *x, tl::float8_e4m3 *y, float s, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask);
  auto w = -tl::abs(v) + v * s;
  tl::store(y + offs, tl::maximum(w, tl::sum(v)), mask);
}

// IR-LABEL: kernel @fp8_matmul
// IR:       layout #0 mma[BM, BN]
// IR:       = for "<" pipelined
// IR:       = cast producer %{{[0-9]+}} : tl::float8_e4m3
// IR-NEXT:  %{{[0-9]+}}:av = load async producer %{{[0-9]+}}:a_ptrs, %{{[0-9]+}}, %{{[0-9]+}} : tile<tl::float8_e4m3, BM, BK>
// IR:       %{{[0-9]+}}:bv = load async producer %{{[0-9]+}}:b_ptrs, %{{[0-9]+}}, %{{[0-9]+}} : tile<tl::float8_e4m3, BK, BN>
// IR-NEXT:  %{{[0-9]+}}:acc = dot "tf32" %{{[0-9]+}}:av, %{{[0-9]+}}:bv, %{{[0-9]+}}:acc : tile<float, BM, BN> #0
// IR:       %[[SCALED:[0-9]+]] = binary "*" %{{[0-9]+}}:acc, %3:scale : tile<float, BM, BN> #0
// IR-NEXT:  %[[OUT:[0-9]+]] = cast %[[SCALED]] : tile<tl::float8_e5m2, BM, BN> #0
// IR-NEXT:  store quad_runs %{{[0-9]+}}, %[[OUT]], %{{[0-9]+}}:mask
// IR-LABEL: kernel @fp8_elementwise
// IR:       %[[V:[0-9]+]]:v = load %{{[0-9]+}}, %{{[0-9]+}}:mask : tile<tl::float8_e5m2, BLOCK> #0
// IR-NEXT:  %[[VF:[0-9]+]] = cast %[[V]]:v : tile<float, BLOCK> #0
// IR-NEXT:  = unary "abs" %[[VF]] : tile<float, BLOCK> #0
// IR-NEXT:  = unary "-" %{{[0-9]+}} : tile<float, BLOCK> #0
// IR-NEXT:  = cast %[[V]]:v : tile<float, BLOCK> #0
// IR-NEXT:  = binary "*" %{{[0-9]+}}, %2:s : tile<float, BLOCK> #0
// IR:       = reduce "sum" %{{[0-9]+}} [0] : float
// IR-NEXT:  = binary "maximum" %{{[0-9]+}}:w, %{{[0-9]+}} : tile<float, BLOCK> #0
// IR-NEXT:  = cast %{{[0-9]+}} : tile<tl::float8_e4m3, BLOCK> #0

// CU-LABEL: fp8_matmul(const tl::float8_e4m3* a, const tl::float8_e4m3* b, tl::float8_e5m2* c, float scale, int m, int n, int k) {
// CU:       tl::float8_e4m3* const av_stages = reinterpret_cast<tl::float8_e4m3*>(dsmem + 0);
// CU:       tl::float8_e4m3* const bv_stages = reinterpret_cast<tl::float8_e4m3*>(dsmem + PIPELINE_STAGES * (BM * (BK * 1)));
// CU:       tl::float8_e4m3* const bv_k_major = reinterpret_cast<tl::float8_e4m3*>(dsmem + PIPELINE_STAGES * (BM * (BK * 1)) + PIPELINE_STAGES * (BK * (BN * 1)));
// CU:       tilec::copy_tile_async<L{{[0-9]+}}, av_next_width, av_next_mask_uniform, tilec::SmemTile<BM, BK, tl::float8_e4m3>>(av_next, a_ptrs, {{t[0-9]+}}, tid);
// The 8-bit B stage is rewritten K-major (k-major-operands), and the dot reads it as B^T.
// CU:       tilec::transpose_to_k_major<tilec::SmemTile<BK, BN, tl::float8_e4m3>, tilec::SmemTile<BN, BK, tl::float8_e4m3>, THREADS>(bv, bv_k_major, tid);
// CU-NEXT:  // dot_fp8.cpp:{{[0-9]+}}: the K-major copy is complete
// CU-NEXT:  __syncthreads();
// CU:       tilec::dot_smem<L0, tilec::SmemTile<BM, BK, tl::float8_e4m3>, tilec::SmemTile<BN, BK, tl::float8_e4m3>, tilec::DotTf32, false, true>(av, bv_k_major, acc{{(_[0-9]+)?}}, tid);
// CU:       tl::float8_e5m2 [[OUT:t[0-9]+]][L0::ELEMS];
// CU:       [[OUT]][i] = tilec::cast<tl::float8_e5m2>((acc[i] * scale));
// CU:       tilec::store_vec<store_width, store_mask_uniform>({{.*}}, &[[OUT]][i], &mask[i], L0::owner(tid));
// CU-LABEL: fp8_elementwise(
// CU:       tl::float8_e5m2 v[L0::ELEMS];
// CU:       tilec::load_vec<v_width, v_mask_uniform>(&v[i], (x + offs[i]), &mask[i], tilec::cast<tl::float8_e5m2>(0));
// CU:       w[i] = ((-tilec::abs(tilec::cast<float>(v[i]))) + (tilec::cast<float>(v[i]) * s));
// CU:       = tilec::cast<tl::float8_e4m3>(tilec::maximum(w[i], {{.*}}));

// H-LABEL: inline void fp8_matmul(
// H:       const size_t shared_bytes = size_t((options.num_stages > 2 ? options.num_stages : 2) * (BM * (BK * 1)) + (options.num_stages > 2 ? options.num_stages : 2) * (BK * (BN * 1)) + BN * (BK * 1));
