// tl::dot: the result and its accumulator take the mma layout; register operands are staged
// through the shared scratch buffer; a loop whose loads only feed dot is pipelined: the loads
// and the pointers they advance run NUM_STAGES - 1 iterations ahead, into stage buffers.
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
// CU-NEXT:  tilec::dot_smem<L0, tilec::SmemTile<BM, BK, tl::half>, tilec::SmemTile<BK, BN, tl::half>, tilec::DotTf32>(acc_a, acc_b, acc, tid);
// CU-LABEL: dot_loop(
// CU:       extern __shared__ __align__(1024) unsigned char dsmem[];
// CU:       long long a_ptrs_advance = 0; // elements a_ptrs has advanced
// CU:       constexpr int stages = (NUM_STAGES > 2 ? NUM_STAGES : 2);
// CU:       tl::bfloat16* av_stages = reinterpret_cast<tl::bfloat16*>(dsmem + 0);
// CU:       tl::bfloat16* bv_stages = reinterpret_cast<tl::bfloat16*>(dsmem + stages * av_smem::BYTES);
// CU:       for (int stage = 0; stage < stages - 1; ++stage) {
// CU:         a_ptrs_now[i] = (((a + (rm[L{{[0-9]+}}::from_parent(i)] * k)) + rk[L{{[0-9]+}}::from_parent(i)]) + a_ptrs_advance);
// CU-NEXT:    tilec::copy_tile_async<L{{[0-9]+}}, av_width, av_mask_uniform, av_smem>((av_stages + stage * av_smem::ELEMS), a_ptrs_now, {{t[0-9]+}}, tid);
// CU:         tilec::copy_tile_async<L{{[0-9]+}}, bv_width, bv_smem>((bv_stages + stage * bv_smem::ELEMS), b_ptrs_now, tid);
// CU-NEXT:    a_ptrs_advance += BK;
// CU-NEXT:    b_ptrs_advance += (BK * BN);
// CU:       tilec::cp_async_commit();
// CU:       for (int k0 = 0; k0 < k; k0 += BK) {
// CU-NEXT:    // this iteration's stage has landed
// CU:         tilec::cp_async_wait<stages - 2>();
// CU-NEXT:    __syncthreads();
// CU-NEXT:    const int write_stage = (read_stage + stages - 1) % stages;
// CU:         tilec::dot_smem<L0, tilec::SmemTile<BM, BK, tl::bfloat16>, tilec::SmemTile<BK, BN, tl::bfloat16>, tilec::DotTf32>((av_stages + read_stage * av_smem::ELEMS), (bv_stages + read_stage * bv_smem::ELEMS), acc_2, tid);
// CU:       tilec::cp_async_wait<0>();
// CU-NEXT:  __syncthreads(); // the stage buffers are free again

// H-LABEL: inline void dot_loop(
// H:       const size_t shared_bytes = size_t((options.num_stages > 2 ? options.num_stages : 2) * (BM * BK * 2 + BK * BN * 2));
// H-NEXT:  kernel.launch(key, grid, options.num_warps * 32, shared_bytes, stream, params);
