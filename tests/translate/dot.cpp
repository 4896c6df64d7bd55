// tl::dot: the result and its accumulator take the mma layout; register operands are staged
// through the shared scratch buffer; a loop whose loads only feed dot is pipelined: the loads run
// NUM_STAGES - 1 iterations ahead, pointers advanced by a fixed step recomputed from k0_ahead.
// Translated for sm_80: the cp.async pipeline itself (on sm_90a dot_loop's A, whose unmasked
// rows are a bare arange, comes from the copy engine: translate.tma_copies has such boxes).
#include <tilec/tl.h>

template <int BM, int BN, int BK>
TILEC_KERNEL void dot_once(const tl::half *a, const tl::half *b, float *c) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto av = tl::load(a + tl::expand_dims<1>(rm) * BK + tl::expand_dims<0>(rk));
  auto bv = tl::load(b + tl::expand_dims<1>(rk) * BN + tl::expand_dims<0>(rn));
  auto acc = tl::dot(av, bv);
  tl::store(c + tl::expand_dims<1>(tl::arange<0, BM>()) * BN + tl::expand_dims<0>(tl::arange<0, BN>()), acc);
}

template <int BM, int BN, int BK>
TILEC_KERNEL void dot_loop(const tl::bfloat16 *a, const tl::bfloat16 *b, float *c, int k) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk);
  auto b_ptrs = b + tl::expand_dims<1>(rk) * BN + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto av = tl::load(a_ptrs, tl::expand_dims<0>(rk) < k - k0, 0.0f);
    auto bv = tl::load(b_ptrs);
    acc = tl::dot(av, bv, acc);
    a_ptrs += BK;
    b_ptrs += BK * BN;
  }
  tl::store(c + tl::expand_dims<1>(tl::arange<0, BM>()) * BN + tl::expand_dims<0>(tl::arange<0, BN>()), acc);
}

// IR-LABEL: kernel @dot_once
// IR:       layout #0 mma[BM, BN]
// IR:       = dot "tf32" %{{[0-9]+}}:av, %{{[0-9]+}}:bv, %{{[0-9]+}} : tile<float, BM, BN> #0
// IR-LABEL: kernel @dot_loop
// IR:       = for "<" pipelined
// IR:       = load async producer %{{[0-9]+}}:a_ptrs, %{{[0-9]+}}, %{{[0-9]+}} : tile<tl::bfloat16, BM, BK>
// IR:       = load async producer %{{[0-9]+}}:b_ptrs : tile<tl::bfloat16, BK, BN>
// IR:       %{{[0-9]+}}:acc = dot "tf32" %{{[0-9]+}}:av, %{{[0-9]+}}:bv, %{{[0-9]+}}:acc
// IR:       = addptr producer %{{[0-9]+}}:a_ptrs
// IR:       = addptr producer %{{[0-9]+}}:b_ptrs

// CU-LABEL: dot_once(
// CU:       using L0 = tilec::MmaLayout<BM, BN, THREADS>;
// CU:       __shared__ alignas(1024) unsigned char smem[{{.*}}tilec::dot_scratch_bytes<tilec::SmemTile<BM, BK, tl::half>, tilec::SmemTile<BK, BN, tl::half>>(){{.*}}];
// CU:       tilec::store_to_smem<{{L[0-9]+}}, tilec::SmemTile<BM, BK, tl::half>>(av, acc_a, tid);
// CU-NEXT:  tilec::store_to_smem<{{L[0-9]+}}, tilec::SmemTile<BK, BN, tl::half>>(bv, acc_b, tid);
// CU-NEXT:  __syncthreads();
// CU-NEXT:  tilec::dot_smem<L0, tilec::SmemTile<BM, BK, tl::half>, tilec::SmemTile<BK, BN, tl::half>, tilec::DotTf32, false, false, /*WAIT=*/true, /*ZERO=*/true>(acc_a, acc_b, acc, tid);
// CU-LABEL: dot_loop(
// CU:       constexpr int PIPELINE_STAGES = (NUM_STAGES > 2 ? NUM_STAGES : 2);
// CU:       extern __shared__ __align__(1024) unsigned char dsmem[];
// CU:       tl::bfloat16* const av_stages = reinterpret_cast<tl::bfloat16*>(dsmem + 0);
// CU:       tl::bfloat16* const bv_stages = reinterpret_cast<tl::bfloat16*>(dsmem + PIPELINE_STAGES * (BM * (BK * 2)));
// CU:       // dot.cpp:27: prologue: the copies for the first STAGES - 1 iterations
// CU-NEXT:  int k0_ahead = 0;
// CU-NEXT:  for (int stage = 0; stage < (PIPELINE_STAGES - 1); stage += 1) {
// CU:         if ((k0_ahead < k)) {
// CU-NEXT:      const int64_t a_ptrs_advance = tilec::cast<int64_t>(k0_ahead);
// CU:             [[MASK:t[0-9]+]][i] = (rk[L{{[0-9]+}}::from_parent(i)] < (k - k0_ahead));
// CU-NEXT:        a_ptrs[i] = (((a + (rm[L{{[0-9]+}}::from_parent(i)] * k)) + rk[L{{[0-9]+}}::from_parent(i)]) + a_ptrs_advance);
// CU-NEXT:      }
// CU-NEXT:      tl::bfloat16* const av_next = av_stages + stage * tilec::SmemTile<BM, BK, tl::bfloat16>::ELEMS;
// CU:           tilec::copy_tile_async<L{{[0-9]+}}, av_next_width, av_next_mask_uniform, tilec::SmemTile<BM, BK, tl::bfloat16>>(av_next, a_ptrs, [[MASK]], tid);
// CU-NEXT:      const int64_t b_ptrs_advance = (tilec::cast<int64_t>(k0_ahead) * tilec::cast<int64_t>(BN));
// CU:           b_ptrs[i] = (((b + (rk_1[L{{[0-9]+}}::from_parent(i)] * BN)) + rn[L{{[0-9]+}}::from_parent(i)]) + b_ptrs_advance);
// CU:           tilec::copy_tile_async<L{{[0-9]+}}, bv_next_width, tilec::SmemTile<BK, BN, tl::bfloat16>>(bv_next, b_ptrs, tid);
// CU-NEXT:    }
// CU-NEXT:    const int {{t[0-9]+}} = (k0_ahead + BK);
// CU:         tilec::cp_async_commit();
// CU:       for (int k0 = 0; k0 < k; k0 += BK) {
// CU-NEXT:    // dot.cpp:27: this iteration's stage has landed
// CU-NEXT:    tilec::cp_async_wait<PIPELINE_STAGES - 2>();
// CU-NEXT:    // dot.cpp:27: every thread is done with the stage the last iteration read
// CU-NEXT:    __syncthreads();
// CU-NEXT:    const int write_stage = ((read_stage + (PIPELINE_STAGES - 1)) % PIPELINE_STAGES);
// CU:           tl::bfloat16* const av_next_1 = av_stages + write_stage * tilec::SmemTile<BM, BK, tl::bfloat16>::ELEMS;
// CU:         tilec::cp_async_commit();
// CU-NEXT:    tl::bfloat16* const av = av_stages + read_stage * tilec::SmemTile<BM, BK, tl::bfloat16>::ELEMS;
// CU-NEXT:    tl::bfloat16* const bv = bv_stages + read_stage * tilec::SmemTile<BK, BN, tl::bfloat16>::ELEMS;
// CU:         tilec::dot_smem<L0, tilec::SmemTile<BM, BK, tl::bfloat16>, tilec::SmemTile<BK, BN, tl::bfloat16>, tilec::DotTf32>(av, bv, acc_1, tid);
// CU:         const int next_stage = (({{t[0-9]+}} == PIPELINE_STAGES) ? 0 : {{t[0-9]+}});
// CU:       // dot.cpp:27: no copy is in flight
// CU-NEXT:  tilec::cp_async_wait<0>();
// CU-NEXT:  // dot.cpp:27: the stage buffers are free again
// CU-NEXT:  __syncthreads();

// H-LABEL: inline void dot_loop(
// H:       const size_t shared_bytes = size_t((options.num_stages > 2 ? options.num_stages : 2) * (BM * (BK * 2)) + (options.num_stages > 2 ? options.num_stages : 2) * (BK * (BN * 2)));
// H-NEXT:  kernel.launch(key, grid, options.num_warps * 32, shared_bytes, stream, params);
