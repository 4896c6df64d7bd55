// bench_ports.cpp - the corpus kernels ported from Liger-Kernel (JSD, TVD, DyT, fused add +
// RMSNorm), Unsloth (RMSNorm, GEGLU, cross-entropy), FlagGems (softmax, var_mean, L2 norm,
// cumsum, LayerNorm, weight norm), Mamba (selective state update, gated RMSNorm), DeepSeek-V3
// (fp8 block quantization and the block-scaled fp8 GEMM), vLLM (decode attention over a paged
// KV cache), flash-linear-attention (the fused recurrence) and Triton's tutorials 04 and 07 (dropout with a stored mask, asin) at LLM shapes, for comparison with the
// Triton originals that bench/peers/ports.py runs on the same problems: 4096 rows of bf16 (fp32
// for cumsum and weight norm), vocabularies of 32000 (Gemma 2's 256000 for the chunked
// cross-entropy), Mamba-2 2.7B's decoding step and gated norm, 2^26 fp32 elements for the
// tutorials.
//
// Block sizes and num_warps are what the originals' host code picks; where it autotunes
// (DyT, FlagGems' row reductions, LayerNorm, weight norm, softmax backward) one config of its
// tuning list, the same on both sides, named in the row's note. Every launch comes after a
// 256 MB write that leaves nothing in L2, as do_bench's launches do (several problems here are
// near the L2's size), and kernels that write over their inputs get them back first. GB/s
// counts each input of the operation read once and each output written once, not the
// partial results that multi-kernel rows pass between their kernels (the formulas are the
// peer's). tests/corpus/ports_gpu_test.cpp checks the kernels at small sizes, mostly at other
// specializations.
// BENCH_PORTS_ONLY (e.g. "jsd,cumsum") runs only the named kernels. A kernel that fails is
// reported on stderr and the others still run (exit 1 at the end). Prints JSON lines
// (bench_util.h); exits 77 without a GPU.
#include "corpus_bench_util.h"
#include "deepseek_fp8.tilec.h"
#include "deepseek_fp8_gemm.tilec.h"
#include "fla_cumsum.tilec.h"
#include "fla_fused_recurrent.tilec.h"
#include "flaggems_cumsum.tilec.h"
#include "flaggems_layer_norm.tilec.h"
#include "flaggems_softmax.tilec.h"
#include "flaggems_var_mean.tilec.h"
#include "flaggems_vector_norm.tilec.h"
#include "flaggems_weight_norm.tilec.h"
#include "liger_dyt.tilec.h"
#include "liger_fused_add_rms_norm.tilec.h"
#include "liger_jsd.tilec.h"
#include "liger_sparsemax.tilec.h"
#include "liger_qwen2vl_mrope.tilec.h"
#include "liger_tvd.tilec.h"
#include "mamba_layernorm_gated.tilec.h"
#include "mamba_selective_state_update.tilec.h"
#include "mamba_ssd_bmm.tilec.h"
#include "triton_tutorials_misc.tilec.h"
#include "unsloth_cross_entropy.tilec.h"
#include "unsloth_geglu.tilec.h"
#include "unsloth_rms_layernorm.tilec.h"
#include "vllm_decode_attention.tilec.h"
#include "vllm_fp8_group_quant.tilec.h"
#include "vllm_merge_attn_states.tilec.h"

#include <tilec/runtime.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace {

using bf16 = tl::bfloat16;
using corpus_bench::Dev;
using corpus_bench::Restore;
using corpus_bench::sm_count;
const corpus_bench::Reporter report{"ports"};

constexpr int kRows = 4096;
constexpr int kVocab = 32000;

uint32_t u32(size_t v) { return uint32_t(v); }
std::string rows_x(int cols) { return std::to_string(kRows) + "x" + std::to_string(cols); }
std::string note(const char *block_name, int block, int warps) {
  return std::string(block_name) + "=" + std::to_string(block) +
         " num_warps=" + std::to_string(warps);
}

/// Targets for the losses: spread over the vocabulary, as bench_corpus' cross-entropy.
std::vector<int64_t> labels(int vocab) {
  std::vector<int64_t> y(kRows);
  for (int r = 0; r < kRows; ++r)
    y[r] = (int64_t(r) * 7919) % vocab;
  return y;
}

// ---------------------------------------------------------------------------------------
// Liger-Kernel: BLOCK_SIZE min(65536 (JSD) / 16384 (TVD), next power of two of V), JSD's
// num_warps left at 4, TVD's by block size; no labels (the modules' default).

void jsd(cudaStream_t s) {
  const size_t n = size_t(kRows) * kVocab;
  Dev<bf16> x(n, -12, -8), y(n, -12, -8, 2), dx(n);
  Dev<float> loss(n);
  const Restore flush(s, {});
  report("jsd bf16 " + rows_x(kVocab), 2.0 * n * 2 + n * 4.0 + n * 2.0,
         note("BLOCK_SIZE", 32768, 4) + " beta=0.5", s, [&] {
           jsd_kernel<bf16, -100, 32768, false>(tilec::Grid{kRows}, s, x.p, kVocab, y.p, kVocab,
                                                loss.p, kVocab, dx.p, kVocab, nullptr, 0.5f,
                                                kRows, kVocab, {.num_warps = 4});
         }, &flush);
}

void tvd(cudaStream_t s) {
  const size_t n = size_t(kRows) * kVocab;
  Dev<bf16> p(n, 0, 1e-4f), q(n, 0, 1e-4f, 2), grads(n);
  Dev<float> loss(kRows);
  const Restore flush(s, {});
  report("tvd bf16 " + rows_x(kVocab), 3.0 * n * 2 + kRows * 4.0,
         note("BLOCK_SIZE", 16384, 16) + " reduction=batchmean", s, [&] {
           // reduction 3: REDUCTION_MODE_BATCHMEAN, scaled by 1 / rows on the host
           tv_distance_kernel<bf16, -100, 16384, false, 3>(
               tilec::Grid{kRows}, s, p.p, kVocab, q.p, kVocab, loss.p, 1, grads.p, kVocab,
               nullptr, kVocab, 1.0f / kRows, {.num_warps = 16});
         }, &flush);
}

/// DyT with beta: one of Liger's 18 autotune configs each way (BLOCK_N 2048, 8 warps, 1 stage
/// forward; 4096, 16 warps, 2 stages backward); the backward over (1, SMs) programs.
void dyt(cudaStream_t s) {
  constexpr int N = 4096;
  const size_t n = size_t(kRows) * N;
  const int sms = sm_count();
  Dev<bf16> x(n), y(n), alpha(1, 0.5f, 0.5f), gamma(N, -1, 1, 3), beta(N, -1, 1, 4);
  Dev<bf16> dy(n, -1, 1, 5), dx(n);
  Dev<float> da(size_t(sms) * tilec::cdiv(N, 512)), dg(size_t(sms) * N), db(size_t(sms) * N);
  const Restore flush(s, {});
  report("dyt fwd bf16 " + rows_x(N), 2.0 * n * 2 + 2 * N * 2, note("BLOCK_N", 2048, 8) +
         " num_stages=1", s, [&] {
           dyt_fwd_kernel<bf16, true, N, 2048>(tilec::Grid{N / 2048, kRows}, s, x.p, y.p, alpha.p,
                                               gamma.p, beta.p,
                                               {.num_warps = 8, .num_stages = 1});
         }, &flush);
  report("dyt bwd bf16 " + rows_x(N), 3.0 * n * 2 + N * 2 + 2.0 * sms * N * 4,
         note("BLOCK_N", 4096, 16) + " num_stages=2 programs=SMs", s, [&] {
           dyt_bwd_kernel<bf16, true, N, 4096>(tilec::Grid{1, u32(sms)}, s, dy.p, dx.p, da.p,
                                               dg.p, db.p, x.p, alpha.p, gamma.p, kRows,
                                               {.num_warps = 16, .num_stages = 2});
         }, &flush);
}

/// Liger sparsemax over 4096 x 4096 bf16, one 4096 block of 8 warps per row (Liger's
/// calculate_settings): the forward at thresholds between 0.5 and 1.5 (outputs partly zero), the
/// backward of that output (two passes over o and dO; the second is counted once, from L2).
void sparsemax(cudaStream_t s) {
  constexpr int N = 4096;
  const size_t n = size_t(kRows) * N;
  Dev<bf16> x(n, -3, 3), tau(kRows, 0.5f, 1.5f, 2), o(n), dO(n, -1, 1, 3), dI(n);
  const Restore flush(s, {});
  report("sparsemax fwd bf16 " + rows_x(N), 2.0 * n * 2 + kRows * 2.0, note("block_size", N, 8),
         s, [&] {
           sparsemax_forward_kernel<bf16, N>(tilec::Grid{kRows}, s, x.p, N, tau.p, 1, o.p, N, N,
                                             {.num_warps = 8});
         }, &flush);
  report("sparsemax bwd bf16 " + rows_x(N), 3.0 * n * 2, note("block_size", N, 8), s, [&] {
    sparsemax_backward_kernel<bf16, N>(tilec::Grid{kRows}, s, o.p, N, dO.p, N, dI.p, N, N,
                                       {.num_warps = 8});
  }, &flush);
}

/// Llama casting mode, num_stages 2 as the host passes it; the backward with dS_out over SMs
/// programs, rows_per_program a template parameter as the original's constexpr (32 for 4096
/// rows on 129 to 136 SMs).
/// Qwen2-VL 7B's M-RoPE over 4096 tokens (28 query heads, 4 KV heads of 128, sections 16, 24,
/// 24), bf16, in place (q and k put back before each launch); a program per token, Triton's
/// default 4 warps, as Liger launches it.
void qwen2vl_mrope(cudaStream_t s) {
  constexpr int tokens = kRows, n_qh = 28, n_kh = 4, hd = 128;
  const size_t nq = size_t(tokens) * n_qh * hd, nk = size_t(tokens) * n_kh * hd;
  const size_t nc = size_t(3) * tokens * hd;
  Dev<bf16> q(nq), k(nk, -1, 1, 2), cos(nc, -1, 1, 3), sin(nc, -1, 1, 4);
  const Restore fresh(s, {{q.p, nq * sizeof(bf16)}, {k.p, nk * sizeof(bf16)}});
  // q and k read and written; of cos and sin, the half a row each token's angles come from
  report("qwen2vl_mrope fwd bf16 t4096 qh28 kh4 d128", 2.0 * (nq + nk) * 2 + tokens * hd * 2.0,
         "BLOCK_SIZE=32 num_warps=4", s, [&] {
           _triton_qwen2vl_mrope<bf16, bf16, 1, n_qh, n_kh, hd, 32, 4, 128, 16, 24, 32, false>(
               tilec::Grid{u32(tokens)}, s, q.p, k.p, cos.p, sin.p, tokens, {.num_warps = 4});
         }, &fresh);
}

void fused_add_rms_norm(cudaStream_t s) {
  constexpr int N = 4096, RPP = 32;
  const size_t n = size_t(kRows) * N;
  Dev<bf16> x(n), r(n, -1, 1, 2), w(N, -1, 1, 3), y(n), sum(n);
  Dev<float> rstd(kRows, 0.9f, 1.1f);
  const Restore flush(s, {});
  const std::string shape = " bf16 " + rows_x(N), cfg = note("BLOCK_SIZE", N, 8) + " num_stages=2";
  report("fused_add_rms_norm fwd" + shape, 4.0 * n * 2 + N * 2 + kRows * 4, cfg, s, [&] {
    fused_add_rms_norm_forward_kernel<bf16, /*llama*/ 0, N>(
        tilec::Grid{kRows}, s, y.p, N, sum.p, N, x.p, N, r.p, N, w.p, 1, rstd.p, 1, N, 1e-6f, 0.0f,
        {.num_warps = 8, .num_stages = 2});
  }, &flush);
  const int sms = sm_count();
  if ((kRows + sms - 1) / sms != RPP) {
    std::fprintf(stderr, "bench_ports: fused_add_rms_norm bwd skipped: %d SMs need "
                         "rows_per_program %d, built for %d\n", sms, (kRows + sms - 1) / sms, RPP);
    return;
  }
  Dev<bf16> dy(n, -1, 1, 4), ds(n, -1, 1, 5), dx(n);
  Dev<float> dw(size_t(sms) * N);
  report("fused_add_rms_norm bwd" + shape, 4.0 * n * 2 + N * 2 + kRows * 4 + sms * N * 4.0,
         cfg + " programs=SMs", s, [&] {
           fused_add_rms_norm_backward_kernel<bf16, RPP, /*llama*/ 0, N, true>(
               tilec::Grid{u32(sms)}, s, dy.p, N, ds.p, N, dx.p, N, sum.p, N, w.p, 1, rstd.p, 1,
               dw.p, N, kRows, N, 0.0f, {.num_warps = 8, .num_stages = 2});
         }, &flush);
}

// ---------------------------------------------------------------------------------------
// Unsloth: calculate_settings for the rows (the row rounded up to a power of two; 8 warps
// for 4096, 32 for 32768), GEGLU's fixed 1024-element blocks, cross-entropy's backward in
// 4096-wide blocks of 8 warps and its chunked forward in 65536-wide chunks of 32 warps.

void unsloth_rms_layernorm(cudaStream_t s) {
  constexpr int N = 4096;
  const size_t n = size_t(kRows) * N;
  Dev<bf16> x(n), w(N, -1, 1, 2), y(n), dy(n, -1, 1, 3);
  Dev<float> r(kRows, 0.9f, 1.1f);
  const Restore flush(s, {});
  const Restore fresh(s, {{dy.p, n * sizeof(bf16)}}); // dX is written over dY
  const std::string shape = " bf16 " + rows_x(N), cfg = note("BLOCK_SIZE", N, 8);
  report("unsloth_rms_layernorm fwd" + shape, 2.0 * n * 2 + N * 2 + kRows * 4, cfg, s, [&] {
    rms_layernorm_forward<bf16, N, N, 1, 1, N, N>(tilec::Grid{kRows}, s, y.p, x.p, w.p, r.p,
                                                  1e-6f, {.num_warps = 8});
  }, &flush);
  report("unsloth_rms_layernorm bwd" + shape, 3.0 * n * 2 + N * 2 + kRows * 4, cfg, s, [&] {
    rms_layernorm_backward<bf16, N, N, N, 1, 1, N, false, N>(tilec::Grid{kRows}, s, dy.p, dy.p,
                                                             x.p, w.p, r.p, 1e-6f,
                                                             {.num_warps = 8});
  }, &fresh);
}

/// Gemma's GEGLU (the tanh form) and the exact one, over a 4096 x 14336 activation; the
/// backward passes write h, df and de over DW, e and g.
void unsloth_geglu(cudaStream_t s) {
  constexpr int N = 14336;
  const size_t n = size_t(kRows) * N;
  Dev<bf16> e(n, -4, 4), g(n, -2, 2, 2), h(n), dw(n, -1, 1, 3);
  const Restore fresh(s, {{e.p, n * sizeof(bf16)}, {g.p, n * sizeof(bf16)},
                          {dw.p, n * sizeof(bf16)}});
  const tilec::Grid grid{u32(tilec::cdiv(n, size_t(1024)))};
  const std::string shape = " bf16 " + rows_x(N), cfg = note("BLOCK_SIZE", 1024, 4);
  report("unsloth_geglu approx fwd" + shape, 3.0 * n * 2, cfg, s, [&] {
    approx_forward_kernel<bf16, 1024, false>(grid, s, e.p, g.p, h.p, int64_t(n), {.num_warps = 4});
  }, &fresh);
  report("unsloth_geglu approx bwd" + shape, 6.0 * n * 2, cfg, s, [&] {
    approx_backward_kernel<bf16, 1024, false>(grid, s, dw.p, e.p, g.p, int64_t(n),
                                              {.num_warps = 4});
  }, &fresh);
  report("unsloth_geglu exact fwd" + shape, 3.0 * n * 2, cfg, s, [&] {
    exact_forward_kernel<bf16, 1024, false>(grid, s, e.p, g.p, h.p, int64_t(n), {.num_warps = 4});
  }, &fresh);
  report("unsloth_geglu exact bwd" + shape, 6.0 * n * 2, cfg, s, [&] {
    exact_backward_kernel<bf16, 1024, false>(grid, s, dw.p, e.p, g.p, int64_t(n),
                                             {.num_warps = 4});
  }, &fresh);
}

void unsloth_cross_entropy(cudaStream_t s) {
  {
    const size_t n = size_t(kRows) * kVocab;
    Dev<bf16> x(n, -4, 4);
    Dev<int64_t> y(labels(kVocab));
    Dev<float> loss(kRows), lse(kRows, 12, 12.5f), dloss(kRows, 1.0f / kRows, 1.0f / kRows);
    const Restore flush(s, {});
    const Restore fresh(s, {{x.p, n * sizeof(bf16)}}); // the gradient is written over the logits
    report("unsloth_cross_entropy fwd bf16 " + rows_x(kVocab), n * 2.0 + kRows * (8 + 4 + 4.0),
           note("BLOCK_SIZE", 32768, 32), s, [&] {
             cross_entropy_forward<bf16, kVocab, 32768, false, false>(
                 tilec::Grid{kRows}, s, x.p, kVocab, loss.p, lse.p, y.p, 0.0f, 0.0f,
                 {.num_warps = 32});
           }, &flush);
    report("unsloth_cross_entropy bwd bf16 " + rows_x(kVocab),
           2.0 * n * 2 + kRows * (4 + 4 + 8.0), note("BLOCK_SIZE", 4096, 8), s, [&] {
             cross_entropy_backward<bf16, kVocab, 1, kVocab, 4096, false, false>(
                 tilec::Grid{kRows, u32(tilec::cdiv(kVocab, 4096))}, s, x.p, dloss.p, lse.p, y.p,
                 0.0f, 0.0f, {.num_warps = 8});
           }, &fresh);
  }
  // Gemma 2: 256000 words in 4 chunks, logits soft-capped at 30
  constexpr int V = 256000, CHUNKS = 4;
  const size_t n = size_t(kRows) * V;
  Dev<bf16> x(n, -4, 4);
  Dev<int64_t> y(labels(V));
  Dev<float> loss(kRows), lse(size_t(kRows) * CHUNKS);
  const Restore flush(s, {});
  report("unsloth_cross_entropy chunked fwd softcap bf16 " + rows_x(V),
         n * 2.0 + kRows * (8 + 4 + 4.0 * CHUNKS), note("BLOCK_SIZE", 65536, 32) + " chunks=4",
         s, [&] {
           chunked_cross_entropy_forward<bf16, V, V, CHUNKS, 65536, true, false>(
               tilec::Grid{kRows, CHUNKS}, s, x.p, loss.p, lse.p, y.p, 30.0f, 0.0f,
               {.num_warps = 32});
         }, &flush);
}

// ---------------------------------------------------------------------------------------
// FlagGems at 532ff438: its nvidia heuristics, and for autotuned kernels one config of its
// tune_configs.yaml.

/// Forward along the last dimension: TILE_N the row rounded up to a power of two up to 32768
/// (one tile per program), else 4096 tiles swept twice; 16 warps for tiles of 4096 or more.
/// Backward: TILE_N 1024 of the autotuned set, TILE_M 1024 / TILE_N, 4 warps.
void softmax(cudaStream_t s) {
  const Restore flush(s, {});
  auto fwd = [&](int N, int tile, auto launch) {
    const size_t n = size_t(kRows) * N;
    Dev<bf16> x(n, -4, 4), y(n);
    report("softmax fwd bf16 " + rows_x(N), 2.0 * n * 2, note("TILE_N", tile, 16), s,
           [&] { launch(y.p, x.p, N); }, &flush);
  };
  fwd(4096, 4096, [&](bf16 *y, const bf16 *x, int N) {
    softmax_kernel_inner<bf16, bf16, 4096, true>(tilec::Grid{kRows}, s, y, x, kRows, N,
                                                 {.num_warps = 16});
  });
  fwd(kVocab, 32768, [&](bf16 *y, const bf16 *x, int N) {
    softmax_kernel_inner<bf16, bf16, 32768, true>(tilec::Grid{kRows}, s, y, x, kRows, N,
                                                  {.num_warps = 16});
  });
  fwd(128256, 4096, [&](bf16 *y, const bf16 *x, int N) {
    softmax_kernel_inner<bf16, bf16, 4096, false>(tilec::Grid{kRows}, s, y, x, kRows, N,
                                                  {.num_warps = 16});
  });
  constexpr int N = 4096;
  const size_t n = size_t(kRows) * N;
  Dev<bf16> out(n, 0, 1e-3f), dout(n, -1, 1, 2), din(n);
  report("softmax bwd bf16 " + rows_x(N), 3.0 * n * 2, "TILE_M=1 " + note("TILE_N", 1024, 4), s,
         [&] {
           softmax_backward_kernel_inner<bf16, 1, 1024, false>(tilec::Grid{kRows}, s, out.p,
                                                               dout.p, din.p, kRows, N,
                                                               {.num_warps = 4});
         }, &flush);
}

/// Per row (Welford, BLOCK_M 4 x BLOCK_N 1024 of the autotuned set, 8 warps) and over the whole
/// tensor (1024-element blocks, then one program over the 16384 partial results).
void var_mean(cudaStream_t s) {
  constexpr int N = 4096, BLOCKS = kRows * N / 1024;
  const size_t n = size_t(kRows) * N;
  Dev<bf16> x(n, -3, 5), var(kRows), mean(kRows), acc(BLOCKS), avg(BLOCKS), count(BLOCKS);
  const Restore flush(s, {});
  report("var_mean dim=1 bf16 " + rows_x(N), n * 2.0 + 2 * kRows * 2,
         "BLOCK_M=4 " + note("BLOCK_N", 1024, 8), s, [&] {
           var_mean_welford_kernel<bf16, 4, 1024>(tilec::Grid{kRows / 4}, s, x.p, var.p, mean.p,
                                                  kRows, N, 1.0f, {.num_warps = 8});
         }, &flush);
  report("var_mean all bf16 " + rows_x(N), n * 2.0 + 2 * 2, "BLOCK_N=1024 then 16384 num_warps=4",
         s, [&] {
           var_mean_kernel_1<bf16, 1024>(tilec::Grid{BLOCKS}, s, x.p, acc.p, avg.p, count.p,
                                         int(n), {.num_warps = 4});
           var_mean_kernel_2<bf16, BLOCKS>(tilec::Grid{1}, s, acc.p, avg.p, count.p, var.p,
                                           mean.p, int(n), 1.0f, BLOCKS, {.num_warps = 4});
         }, &flush);
}

/// The L2 norm per row (BLOCK_M 4 of the autotuned set, BLOCK_N 1024, 4 warps) and of the whole
/// tensor (blocks of next_power_of_2(sqrt(n)) = 4096, then one program over the 4096 sums).
void vector_norm(cudaStream_t s) {
  constexpr int N = 4096, MID = kRows * N / 4096;
  const size_t n = size_t(kRows) * N;
  Dev<bf16> x(n, -2, 2), out(kRows), mid(MID);
  const Restore flush(s, {});
  report("vector_norm dim=1 bf16 " + rows_x(N), n * 2.0 + kRows * 2,
         "BLOCK_M=4 " + note("BLOCK_N", 1024, 4), s, [&] {
           l2_norm_kernel<bf16, 4, 1024>(tilec::Grid{kRows / 4}, s, x.p, out.p, kRows, N,
                                         {.num_warps = 4});
         }, &flush);
  report("vector_norm all bf16 " + rows_x(N), n * 2.0 + 2, "BLOCK_SIZE=4096 BLOCK_MID=4096 "
         "num_warps=4", s, [&] {
           l2_norm_kernel_1<bf16, 4096>(tilec::Grid{MID}, s, x.p, mid.p, int(n), {.num_warps = 4});
           l2_norm_kernel_2<bf16, MID>(tilec::Grid{1}, s, mid.p, out.p, MID, {.num_warps = 4});
         }, &flush);
}

/// Reduce-then-scan over M rows of N (N > 16384): 4096-wide tiles, num_ctas =
/// min(tiles, 4 * SMs) chunks per row, their sums scanned by one tile of ROOT.
template <int ROOT>
void cumsum_chunked(const std::string &name, int M, int N, cudaStream_t s, const Restore &flush) {
  const int tiles = tilec::cdiv(N, 4096), ctas = std::min(tiles, 4 * sm_count());
  const int per_cta = tilec::cdiv(tiles, ctas);
  const size_t n = size_t(M) * N;
  Dev<float> x(n), y(n), sums(size_t(M) * ctas), prefix(size_t(M) * ctas);
  const tilec::Grid grid{u32(M), u32(ctas)};
  report(name, 2.0 * n * 4, "TILE_SIZE=4096 num_ctas=" + std::to_string(ctas) +
         " ROOT_SCAN_TILE_SIZE=" + std::to_string(ROOT) + " num_warps=8", s, [&] {
           reduce_then_scan_block_sum_kernel_row<float, float, float, 4096>(
               grid, s, x.p, sums.p, N, per_cta, {.num_warps = 8});
           reduce_then_scan_root_scan_kernel_row<float, float, float, ROOT>(
               tilec::Grid{u32(M)}, s, sums.p, prefix.p, ctas, {.num_warps = 8});
           reduce_then_scan_block_scan_kernel_row<float, float, float, float, 4096>(
               grid, s, x.p, prefix.p, y.p, N, ctas, per_cta, {.num_warps = 8});
         }, &flush);
}

/// Row scans (one 4096 tile per row; chunked rows of 32000; one 2^26 row, chunked over the
/// SMs) and a scan down the columns of 8192 x 4096 (scan-then-fan: 1024-long blocks, their 8
/// sums per column scanned by one block of 8, then added back).
void cumsum(cudaStream_t s) {
  const Restore flush(s, {});
  {
    constexpr int N = 4096;
    const size_t n = size_t(kRows) * N;
    Dev<float> x(n), y(n);
    report("cumsum dim=1 fp32 " + rows_x(N), 2.0 * n * 4, note("TILE_SIZE", 4096, 8), s, [&] {
      reduce_then_scan_root_scan_kernel_row<float, float, float, 4096>(tilec::Grid{kRows}, s, x.p,
                                                                      y.p, N, {.num_warps = 8});
    }, &flush);
  }
  cumsum_chunked<8>("cumsum dim=1 fp32 " + rows_x(kVocab), kRows, kVocab, s, flush);
  const int root = tilec::next_power_of_2(std::min(16384, 4 * sm_count()));
  if (root == 1024)
    cumsum_chunked<1024>("cumsum 1-D fp32 2^26", 1, 1 << 26, s, flush);
  else if (root == 512)
    cumsum_chunked<512>("cumsum 1-D fp32 2^26", 1, 1 << 26, s, flush);
  else
    std::fprintf(stderr, "bench_ports: cumsum 1-D skipped: its root scan needs a tile of %d, "
                         "built for 512 and 1024\n", root);
  constexpr int B = 8192, C = 4096, PARTS = B / 1024;
  const size_t n = size_t(B) * C;
  Dev<float> x(n), y(n), partial(size_t(PARTS) * C), total(C);
  report("cumsum dim=0 fp32 8192x4096", 2.0 * n * 4, "BLOCK_SIZE=1024 then 8 num_warps=4", s,
         [&] {
           scan_part_sum_abc_kernel<float, float, float, float, 1024>(
               tilec::Grid{1, PARTS, C}, s, x.p, y.p, partial.p, B, C, PARTS, {.num_warps = 4});
           scan_part_sum_abc_kernel<float, float, float, float, PARTS>(
               tilec::Grid{1, 1, C}, s, partial.p, partial.p, total.p, PARTS, C, 1,
               {.num_warps = 4});
           add_base_sum_abc_kernel<float, float, 1024>(tilec::Grid{1, PARTS, C}, s, y.p,
                                                       partial.p, B, C, PARTS, {.num_warps = 4});
         }, &flush);
}

/// With weight and bias, mean and rstd in bf16 as the host allocates them: the persistent
/// kernel for 4096 columns, the Welford loop (TILE_N 2048 of the autotuned set) for 8192;
/// 8 warps of the autotuned 4, 8, 16.
void layer_norm(cudaStream_t s) {
  const Restore flush(s, {});
  auto run = [&](int N, int tile, auto launch) {
    const size_t n = size_t(kRows) * N;
    Dev<bf16> x(n, -3, 5), y(n), w(N, -1, 1, 2), b(N, -1, 1, 3), mean(kRows), rstd(kRows);
    report("layer_norm fwd bf16 " + rows_x(N), 2.0 * n * 2 + 2 * N * 2 + 2 * kRows * 2,
           note("TILE_N", tile, 8), s,
           [&] { launch(x.p, y.p, w.p, b.p, mean.p, rstd.p, N); }, &flush);
  };
  run(4096, 4096, [&](auto x, auto y, auto w, auto b, auto mean, auto rstd, int N) {
    layer_norm_persistent_kernel<bf16, bf16, 4096, true, true>(
        tilec::Grid{kRows}, s, x, y, w, b, mean, rstd, kRows, N, 1e-5f, {.num_warps = 8});
  });
  run(8192, 2048, [&](auto x, auto y, auto w, auto b, auto mean, auto rstd, int N) {
    layer_norm_loop_kernel<bf16, bf16, 2048, true, true>(
        tilec::Grid{kRows}, s, x, y, w, b, mean, rstd, kRows, N, 1e-5f, {.num_warps = 8});
  });
}

/// Float weights of 4096 x 4096: norms per row (dim 0: BLOCK_ROW_SIZE 4, BLOCK_COL_SIZE 1024,
/// 4 warps) and per column (the last dim: 512 x 32, 8 warps), from the autotuned sets.
void weight_norm(cudaStream_t s) {
  constexpr int M = 4096, N = 4096;
  const size_t n = size_t(M) * N;
  Dev<float> v(n), out(n), g(M, 0.5f, 2, 2), norm(M);
  const Restore flush(s, {});
  const float eps = FLT_MIN; // torch.finfo(torch.float32).tiny
  report("weight_norm dim=0 fp32 4096x4096", 2.0 * n * 4 + 2 * M * 4,
         "BLOCK_ROW_SIZE=4 BLOCK_COL_SIZE=1024 num_warps=4", s, [&] {
           weight_norm_kernel_first<float, 4, 1024>(tilec::Grid{M / 4}, s, out.p, norm.p, v.p,
                                                    g.p, M, N, eps, {.num_warps = 4});
         }, &flush);
  report("weight_norm dim=-1 fp32 4096x4096", 2.0 * n * 4 + 2 * N * 4,
         "BLOCK_ROW_SIZE=512 BLOCK_COL_SIZE=32 num_warps=8", s, [&] {
           weight_norm_kernel_last<float, 512, 32>(tilec::Grid{N / 32}, s, out.p, norm.p, v.p,
                                                   g.p, M, N, eps, {.num_warps = 8});
         }, &flush);
}

// ---------------------------------------------------------------------------------------
// Mamba at e9594ce1.

/// Mamba-2 2.7B's decoding step (80 heads of 64, state 128, one group) for 64 sequences, as
/// Mamba2.step calls it: dt, dt_bias and A one value per head (TIE_HDIM), softplus, D, no z
/// (the gated norm applies it), a bf16 state updated in place (put back before each launch);
/// A, D and dt_bias in float. The host's choice for dstate 128: BLOCK_SIZE_M 4, 4 warps.
void selective_state_update(cudaStream_t s) {
  constexpr int batch = 64, nheads = 80, dim = 64, dstate = 128, ngroups = 1;
  const size_t states = size_t(batch) * nheads * dim * dstate, xs = size_t(batch) * nheads * dim;
  const size_t bcs = size_t(batch) * ngroups * dstate;
  Dev<bf16> state(states), x(xs, -1, 1, 2), dt(size_t(batch) * nheads, -3, 1, 3), B(bcs, -1, 1, 4);
  Dev<bf16> C(bcs, -1, 1, 5), out(xs);
  Dev<float> dt_bias(nheads, -0.5f, 0.5f, 6), A(nheads, -2, -0.1f, 7), D(nheads, -1, 1, 8);
  const Restore fresh(s, {{state.p, states * sizeof(bf16)}});
  report("selective_state_update bf16 b64 h80 p64 n128",
         2.0 * states * 2 + 2.0 * xs * 2 + batch * nheads * 2.0 + 2.0 * bcs * 2 + 3 * nheads * 4,
         "BLOCK_SIZE_M=4 BLOCK_SIZE_DSTATE=128 num_warps=4 tie_hdim dt_softplus", s, [&] {
           _selective_scan_update_kernel<bf16, bf16, float, true, true, 4, true, true, false,
                                         false, 128>(
               tilec::Grid{dim / 4, batch, nheads}, s, state.p, x.p, dt.p, dt_bias.p, A.p, B.p,
               C.p, D.p, nullptr, out.p, nullptr, batch, nheads, dim, dstate, nheads / ngroups,
               // the 29 strides in the original's order; 0 where Mamba2.step repeats a tensor
               nheads * dim * dstate, dim * dstate, dstate, 1, // state
               nheads * dim, dim, 1,                           // x
               nheads, 1, 0,                                   // dt
               1, 0,                                           // dt_bias
               1, 0, 0,                                        // A
               ngroups * dstate, dstate, 1,                    // B
               ngroups * dstate, dstate, 1,                    // C
               1, 0,                                           // D
               0, 0, 0,                                        // z
               nheads * dim, dim, 1,                           // out
               {.num_warps = 4});
         }, &fresh);
}

/// SSD's C B^T per chunk as Mamba-2's forward calls it (`_bmm_chunk_fwd(C, B, chunk_size,
/// output_dtype=float32)`): 2.7B's state of 128 in one group, chunks of 256, 16 sequences of
/// 4096, bf16 in, float out; autotuned over the original's nine configs on both sides.
void ssd_bmm(cudaStream_t s) {
  constexpr int batch = 16, seqlen = 4096, chunk = 256, groups = 1, K = 128;
  constexpr int chunks = seqlen / chunk;
  const size_t seq_elems = size_t(batch) * seqlen * groups * K;
  const size_t out_elems = size_t(batch) * chunks * groups * chunk * chunk;
  Dev<bf16> C(seq_elems), B(seq_elems, -1, 1, 2);
  Dev<float> out(out_elems);
  const Restore flush(s, {});
  tilec::Config chosen;
  auto grid = [&](const tilec::Config &meta) {
    chosen = meta;
    return tilec::Grid{u32(tilec::cdiv(chunk, meta["BLOCK_SIZE_M"]) *
                           tilec::cdiv(chunk, meta["BLOCK_SIZE_N"])),
                       u32(batch), u32(chunks * groups)};
  };
  auto launch = [&] {
    _bmm_chunk_fwd_kernel_autotuned<bf16, float, bf16, false, false>(
        grid, s, C.p, B.p, out.p, nullptr, seqlen, chunk, K, groups, seqlen * groups * K,
        groups * K, K, 1, seqlen * groups * K, groups * K, K, 1, chunks * groups * chunk * chunk,
        groups * chunk * chunk, chunk * chunk, chunk, 1, 0, 0);
  };
  launch(); // autotunes
  report("mamba ssd_bmm fwd bf16->fp32 b16 seq4096 chunk256 k128", 2.0 * seq_elems * 2 + out_elems * 4.0,
         "autotuned over the original's 9 configs", s, launch, &flush);
}

/// RMSNormGated as Mamba-2 uses it (gate applied before the norm, no bias) over 4096 tokens:
/// 2.7B's 5120 channels in one group (BLOCK_N 8192, 8 warps) and Codestral's 8192 in 8 groups of
/// 1024 (BLOCK_N 1024, 4 warps): BLOCK_N the group rounded up, min(max(BLOCK_N / 256, 1), 8)
/// warps.
void layernorm_gated(cudaStream_t s) {
  const Restore flush(s, {});
  auto run = [&](int N, int groups, int block, int warps, auto launch) {
    const size_t n = size_t(kRows) * N;
    Dev<bf16> x(n, -2, 3), z(n, -2, 2, 2), y(n), w(N, -1, 1, 3);
    Dev<float> rstd(size_t(groups) * kRows);
    report("layernorm_gated rms bf16 " + rows_x(N) + " groups=" + std::to_string(groups),
           3.0 * n * 2 + N * 2 + groups * kRows * 4.0, note("BLOCK_N", block, warps), s,
           [&] { launch(x.p, y.p, w.p, z.p, rstd.p, N, N / groups); }, &flush);
  };
  run(5120, 1, 8192, 8, [&](bf16 *x, bf16 *y, bf16 *w, bf16 *z, float *rstd, int N, int group) {
    _layer_norm_fwd_1pass_kernel<bf16, bf16, 8192, false, true, false, true>(
        tilec::Grid{kRows, 1}, s, x, y, w, nullptr, z, nullptr, rstd, N, N, N, kRows, group, 1e-5f,
        {.num_warps = 8});
  });
  run(8192, 8, 1024, 4, [&](bf16 *x, bf16 *y, bf16 *w, bf16 *z, float *rstd, int N, int group) {
    _layer_norm_fwd_1pass_kernel<bf16, bf16, 1024, false, true, false, true>(
        tilec::Grid{kRows, 8}, s, x, y, w, nullptr, z, nullptr, rstd, N, N, N, kRows, group, 1e-5f,
        {.num_warps = 4});
  });
}

// ---------------------------------------------------------------------------------------
// DeepSeek-V3's fp8 kernels at its sizes: 128-wide blocks, Triton's default 4 warps for the
// quantizers (as the original's host code launches them).

using e4m3 = tl::float8_e4m3;

/// Activations of 4096 tokens x 7168 (V3's hidden size) quantized per 128 columns; the
/// 18432 x 7168 weight of a dense MLP projection quantized and dequantized per 128 x 128 square.
void deepseek_quant(cudaStream_t s) {
  constexpr int H = 7168, F = 18432;
  const Restore flush(s, {});
  {
    const size_t n = size_t(kRows) * H;
    Dev<bf16> x(n, -4, 4);
    Dev<e4m3> y(n);
    Dev<float> scales(n / 128);
    report("act_quant bf16 " + rows_x(H), n * 2.0 + n * 1.0 + n / 128 * 4.0,
           note("BLOCK_SIZE", 128, 4), s, [&] {
             act_quant_kernel<bf16, e4m3, 128>(tilec::Grid{u32(n / 128)}, s, x.p, y.p, scales.p,
                                               {.num_warps = 4});
           }, &flush);
  }
  const size_t n = size_t(F) * H, squares = size_t(F / 128) * (H / 128);
  Dev<bf16> w(n, -0.1f, 0.1f, 2), back(n);
  Dev<e4m3> q(n);
  Dev<float> scales(squares, 1e-4f, 3e-4f, 3);
  const tilec::Grid grid{u32(F / 128), u32(H / 128)};
  report("weight_quant bf16 18432x7168", n * 2.0 + n * 1.0 + squares * 4.0,
         note("BLOCK_SIZE", 128, 4), s, [&] {
           weight_quant_kernel<bf16, e4m3, 128>(grid, s, w.p, q.p, scales.p, F, H,
                                                {.num_warps = 4});
         }, &flush);
  report("weight_dequant e4m3 18432x7168", n * 1.0 + squares * 4.0 + n * 2.0,
         note("BLOCK_SIZE", 128, 4), s, [&] {
           weight_dequant_kernel<e4m3, bf16, 128>(grid, s, q.p, scales.p, back.p, F, H,
                                                  {.num_warps = 4});
         }, &flush);
}

/// The GEMM of 4096 tokens by a 7168 x 7168 e4m3 weight with V3's block scales (A per row and
/// 128 columns, B per 128 x 128 square), bf16 out, autotuned on both sides over the same six
/// of the original's 36 configs. TFLOP/s: 2 * M * N * K.
void deepseek_gemm(cudaStream_t s) {
  constexpr int M = kRows, N = 7168, K = 7168;
  Dev<e4m3> a(size_t(M) * K, -2, 2), b(size_t(N) * K, -2, 2, 2);
  Dev<float> a_s(size_t(M) * (K / 128), 0.5f, 2, 3), b_s(size_t(N / 128) * (K / 128), 0.5f, 2, 4);
  Dev<bf16> c(size_t(M) * N);
  tilec::Config chosen;
  auto launch = [&] {
    auto grid = [&](const tilec::Config &meta) {
      chosen = meta;
      return tilec::Grid{u32(tilec::cdiv(M, meta["BLOCK_SIZE_M"])),
                         u32(tilec::cdiv(N, meta["BLOCK_SIZE_N"]))};
    };
    fp8_gemm_kernel_autotuned<e4m3, bf16, N, K>(grid, s, a.p, b.p, c.p, a_s.p, b_s.p, M);
  };
  launch(); // autotunes
  const double ms = bench::median_ms_flushed([&](int) { launch(); }, s, 5, 20);
  bench::emit({"ports fp8_gemm e4m3 block-scaled 4096x7168x7168", "tilec", ms, "TFLOP/s",
               2.0 * M * N * K / (ms * 1e9), "autotuned: " + chosen.str()});
}

// ---------------------------------------------------------------------------------------
// vLLM's decode attention: 32 sequences, one query token each, over a paged bf16 cache
// (pages handed out in reverse order), both stages, the original's launch choices (key blocks
// of 64 for MHA, 32 and 16 heads a program for the grouped kernel; 4 warps, 2 stages), 8
// splits. GB/s: the cache's keys and values (MLA: its 576-wide rows, keys and values at
// once), q, the page table and o; not the splits' partial results.

template <int H, int H_KV, int Lk, int Lv, int PAGE>
void decode_attention_row(const std::string &name, int ctx, cudaStream_t s, const Restore &flush,
                          const std::function<void(const bf16 *, const bf16 *, const bf16 *,
                                                   const int32_t *, const int32_t *, float *)>
                              &stage1) {
  constexpr int batch = 32, splits = 8;
  constexpr bool mla = Lk == 576;
  const size_t slots = size_t(batch) * ctx, pages = slots / PAGE;
  Dev<bf16> q(size_t(batch) * H * Lk), k(slots * H_KV * Lk, -1, 1, 2);
  Dev<bf16> v(mla ? 1 : slots * H_KV * Lv, -1, 1, 3), o(size_t(batch) * H * Lv);
  std::vector<int32_t> table(pages), lens(batch, ctx);
  for (size_t i = 0; i < pages; ++i)
    table[i] = int32_t(pages - 1 - i);
  Dev<int32_t> gtable(table), glens(lens);
  Dev<float> mid(size_t(batch) * H * splits * (Lv + 1));
  constexpr int BLOCK_DV = Lv <= 128 ? 128 : 512;
  const double bytes = double(slots) * H_KV * (mla ? Lk : Lk + Lv) * 2 + batch * H * Lk * 2.0 +
                       pages * 4.0 + batch * H * Lv * 2.0;
  report(name, bytes, "NUM_KV_SPLITS=8 num_warps=4 num_stages=2", s, [&] {
    stage1(q.p, k.p, mla ? k.p : v.p, gtable.p, glens.p, mid.p);
    _fwd_kernel_stage2<bf16, splits, BLOCK_DV, Lv>(
        tilec::Grid{u32(batch), u32(H)}, s, mid.p, o.p, glens.p, H * splits * (Lv + 1),
        splits * (Lv + 1), Lv + 1, H * Lv, Lv, {.num_warps = 4, .num_stages = 2});
  }, &flush);
}

void decode_attention(cudaStream_t s) {
  const Restore flush(s, {});
  constexpr int batch = 32, splits = 8;
  auto strides = [](int H, int Lv) {
    return std::array<int, 3>{H * splits * (Lv + 1), splits * (Lv + 1), Lv + 1};
  };
  { // Llama 2 7B: 32 heads of 128, as many KV heads
    constexpr int H = 32, L = 128, ctx = 1024;
    const auto st = strides(H, L);
    decode_attention_row<H, H, L, L, 16>(
        "decode_attention mha bf16 b32 h32 d128 ctx1024 page16", ctx, s, flush,
        [&](auto q, auto k, auto v, auto table, auto lens, auto mid) {
          _fwd_kernel_stage1<bf16, 1, 128, 128, 64, splits, 16, L, L>(
              tilec::Grid{u32(batch), u32(H), u32(splits)}, s, q, k, v, 0.0884f, table, lens, mid,
              ctx / 16, H * L, L, H * L, L, H * L, L, st[0], st[1], st[2], 0.0f,
              {.num_warps = 4, .num_stages = 2});
        });
  }
  { // Llama 3 8B: 32 heads of 128 over 8 KV heads
    constexpr int H = 32, H_KV = 8, L = 128, ctx = 4096;
    const auto st = strides(H, L);
    decode_attention_row<H, H_KV, L, L, 16>(
        "decode_attention gqa bf16 b32 h32 kv8 d128 ctx4096 page16", ctx, s, flush,
        [&](auto q, auto k, auto v, auto table, auto lens, auto mid) {
          _fwd_grouped_kernel_stage1<bf16, 4, H, 128, 0, 128, 32, 16, splits, 16, L, L>(
              tilec::Grid{u32(batch), u32(H / 4), u32(splits)}, s, q, k, v, 0.0884f, table, lens,
              mid, ctx / 16, H * L, L, H_KV * L, L, H_KV * L, L, st[0], st[1], st[2], 0.0f,
              {.num_warps = 4, .num_stages = 2});
        });
  }
  { // DeepSeek-V3's MLA at 8-way tensor parallelism: 16 heads, one 576-wide latent KV head
    constexpr int H = 16, Lk = 576, Lv = 512, ctx = 4096;
    const auto st = strides(H, Lv);
    decode_attention_row<H, 1, Lk, Lv, 1>(
        "decode_attention mla bf16 b32 h16 d576/512 ctx4096 page1", ctx, s, flush,
        [&](auto q, auto k, auto v, auto table, auto lens, auto mid) {
          _fwd_grouped_kernel_stage1<bf16, 16, H, 512, 64, 512, 32, 16, splits, 1, Lk, Lv>(
              tilec::Grid{u32(batch), 1u, u32(splits)}, s, q, k, v, 0.0417f, table, lens, mid, ctx,
              H * Lk, Lk, Lk, Lk, Lk, Lk, st[0], st[1], st[2], 0.0f,
              {.num_warps = 4, .num_stages = 2});
        });
  }
}

/// vLLM's per-token-group fp8 quantization of DeepSeek-V3's activations (4096 tokens x 7168,
/// groups of 128, e8m0 scales; a program of 1 warp per group, as vLLM launches it), and the
/// fused silu-and-multiply variant over a [4096, 2 x 7168] gate-up output (8 rows by one group
/// per program, 4 warps).
void fp8_group_quant(cudaStream_t s) {
  constexpr int H = 7168, G = 128;
  const size_t n = size_t(kRows) * H, groups = n / G;
  const Restore flush(s, {});
  Dev<bf16> x(n, -4, 4), gate_up(2 * n, -4, 4, 2);
  Dev<e4m3> q(n);
  Dev<float> scales(groups);
  report("fp8_group_quant e8m0 bf16 " + rows_x(H), n * 2.0 + n * 1.0 + groups * 4.0,
         note("BLOCK", G, 1), s, [&] {
           per_token_group_quant_fp8<bf16, e4m3, true, G>(
               tilec::Grid{u32(groups)}, s, x.p, q.p, scales.p, G, H, H, 1e-10f, -448.0f, 448.0f,
               {.num_warps = 1});
         }, &flush);
  report("silu_mul_fp8_group_quant colmajor bf16 " + rows_x(2 * H),
         n * 2.0 * 2 + n * 1.0 + groups * 4.0, "BLOCK_M=8 BLOCK_N=128 num_warps=4", s, [&] {
           silu_mul_per_token_group_quant_fp8_colmajor<bf16, e4m3, false, G, 8, G>(
               tilec::Grid{u32(kRows / 8), u32(H / G)}, s, gate_up.p, q.p, scales.p, kRows,
               2 * H, int64_t(kRows), 1e-10f, -448.0f, 448.0f, {.num_warps = 4});
         }, &flush);
}

/// vLLM's merge of a prefix's and a suffix's attention over 8192 tokens of a 32-head, 128-wide
/// model in bf16, with the merged lse stored; a program per (token, head), 4 warps, as the
/// original launches it.
void merge_attn_states(cudaStream_t s) {
  constexpr int tokens = 8192, heads = 32, D = 128;
  const size_t n = size_t(tokens) * heads * D, lses = size_t(tokens) * heads;
  Dev<bf16> p_out(n), s_out(n, -1, 1, 2), out(n);
  Dev<float> p_lse(lses, -3, 3, 3), s_lse(lses, -3, 3, 4), out_lse(lses);
  const Restore flush(s, {});
  report("merge_attn_states bf16 t8192 h32 d128", 3.0 * n * 2 + 3.0 * lses * 4,
         "PADDED_HEAD_SIZE=128 num_warps=4", s, [&] {
           merge_attn_states_kernel<bf16, D, 128, true>(tilec::Grid{u32(tokens), u32(heads)}, s,
                                                        out.p, out_lse.p, p_out.p, p_lse.p,
                                                        s_out.p, s_lse.p, {.num_warps = 4});
         }, &flush);
}

// ---------------------------------------------------------------------------------------
// flash-linear-attention's fused recurrence as GLA runs it: bf16 q, k, v and key decay gk,
// float states and outputs, 8 sequences of 1024 tokens, 16 heads of K = V = 128 in blocks of
// 64 (the original's choice), 4 warps. GB/s: the inputs read once, the outputs (the forward's
// per-K-block parts of o, the backward's per-block dq, dk, dv, dgk) written once, the states.

/// flash-linear-attention's cumulative sums as GLA's chunked path calls them: the key decay
/// summed per chunk of 64 steps (vector kernel, [B, T, H, K] float, BS 32) and a gate summed
/// over whole sequences (scalar kernel, [B, T, H]); 8 sequences of 4096 steps, 16 heads, K 128;
/// one config of the original's autotuning lists, 4 warps.
void fla_cumsum(cudaStream_t s) {
  constexpr int B = 8, T = 4096, H = 16, K = 128, BT = 64, BS = 32;
  const size_t nv = size_t(B) * T * H * K, ns = size_t(B) * T * H;
  Dev<float> gk(nv, -0.1f, 0), gk_out(nv), g(ns, -0.1f, 0, 2), g_out(ns);
  const Restore flush(s, {});
  report("fla chunk_local_cumsum vector fp32 b8 t4096 h16 k128", 2.0 * nv * 4,
         "BT=64 BS=32 num_warps=4", s, [&] {
           chunk_local_cumsum_vector_kernel<float, float, B, H, K, BT, BS, false, false, false,
                                            false>(
               tilec::Grid{K / BS, T / BT, B * H}, s, gk.p, gk_out.p, 1.0f, nullptr, nullptr, T,
               {.num_warps = 4});
         }, &flush);
  report("fla chunk_global_cumsum scalar fp32 b8 t4096 h16", 2.0 * ns * 4,
         "BT=256 num_warps=4", s, [&] {
           chunk_global_cumsum_scalar_kernel<float, float, B, H, 256, false, false, false, false>(
               tilec::Grid{B * H}, s, g.p, g_out.p, 1.0f, nullptr, T, {.num_warps = 4});
         }, &flush);
}

void fla_fused_recurrent(cudaStream_t s) {
  constexpr int B = 8, T = 1024, H = 16, K = 128, V = 128, BK = 64, BV = 64, NK = 2, NV = 2;
  const size_t tk = size_t(B) * T * H, states = size_t(B) * H * K * V;
  Dev<bf16> q(tk * K), k(tk * K, -1, 1, 2), v(tk * V, -1, 1, 3), gk(tk * K, -0.1f, 0, 4);
  Dev<bf16> dout(tk * V, -1, 1, 5);
  Dev<float> h0(states, -1, 1, 6), ht(states), dht(states, -1, 1, 7), dh0(states);
  Dev<float> o(NK * tk * V), o_sum(tk * V), dq(NV * tk * K), dk(NV * tk * K), dv(NK * tk * V);
  Dev<float> dgk(NV * tk * K);
  const Restore flush(s, {});
  const tilec::Grid grid{NV, NK, u32(B * H)};
  const float scale = 0.0884f;
  report("fla fused_recurrent gla fwd bf16 b8 t1024 h16 k128 v128",
         tk * (3.0 * K + V) * 2 + NK * tk * V * 4.0 + 2.0 * states * 4, "BK=64 BV=64 num_warps=4",
         s, [&] {
           fused_recurrent_fwd_kernel<bf16, float, float, H, K, V, BK, BV, false, false, false,
                                      true, false, true, true, false>(
               grid, s, q.p, k.p, v.p, nullptr, nullptr, gk.p, nullptr, o.p, h0.p, ht.p, nullptr,
               scale, B, T, {.num_warps = 4});
         }, &flush);
  report("fla fused_recurrent gla bwd bf16 b8 t1024 h16 k128 v128",
         tk * (3.0 * K + 2 * V) * 2 + 2.0 * states * 4 +
             (3.0 * NV * tk * K + NK * tk * V) * 4 + states * 4.0,
         "BK=64 BV=64 num_warps=4", s, [&] {
           fused_recurrent_bwd_kernel<bf16, float, float, H, K, V, BK, BV, false, false, false,
                                      true, false, true, true, true, false>(
               grid, s, q.p, k.p, v.p, nullptr, nullptr, gk.p, nullptr, o_sum.p, h0.p, dout.p,
               dq.p, dk.p, dv.p, nullptr, dgk.p, nullptr, dht.p, dh0.p, nullptr, scale, B, T,
               {.num_warps = 4});
         }, &flush);
}

// ---------------------------------------------------------------------------------------
// Triton's tutorials: 1024-element blocks, the default 4 warps.

void tutorial_dropout(cudaStream_t s) {
  constexpr int n = 1 << 26;
  Dev<float> x(n), out(n);
  Dev<int32_t> keep(n, 0, 2, 2); // 0 or 1, half of each
  const Restore flush(s, {});
  report("dropout fp32 2^26", 3.0 * n * 4, note("BLOCK_SIZE", 1024, 4) + " p=0.5", s, [&] {
    _dropout<1024>(tilec::Grid{n / 1024}, s, x.p, keep.p, out.p, n, 0.5f, {.num_warps = 4});
  }, &flush);
}

void tutorial_asin(cudaStream_t s) {
  constexpr int n = 1 << 26;
  Dev<float> x(n), y(n);
  const Restore flush(s, {});
  report("asin fp32 2^26", 2.0 * n * 4, note("BLOCK_SIZE", 1024, 4), s, [&] {
    asin_kernel<1024>(tilec::Grid{n / 1024}, s, x.p, y.p, n, {.num_warps = 4});
  }, &flush);
}

bool wanted(const std::string &kernel) {
  const char *only = std::getenv("BENCH_PORTS_ONLY");
  if (!only || !*only)
    return true;
  const std::string list = "," + std::string(only) + ",";
  return list.find("," + kernel + ",") != std::string::npos;
}

} // namespace

int main() {
  return bench::run_on_gpu("bench_ports", [](cudaStream_t s) {
    const std::pair<const char *, void (*)(cudaStream_t)> kernels[] = {
        {"jsd", jsd},
        {"tvd", tvd},
        {"dyt", dyt},
        {"sparsemax", sparsemax},
        {"fused_add_rms_norm", fused_add_rms_norm},
        {"qwen2vl_mrope", qwen2vl_mrope},
        {"unsloth_rms_layernorm", unsloth_rms_layernorm},
        {"unsloth_geglu", unsloth_geglu},
        {"unsloth_cross_entropy", unsloth_cross_entropy},
        {"softmax", softmax},
        {"var_mean", var_mean},
        {"vector_norm", vector_norm},
        {"cumsum", cumsum},
        {"layer_norm", layer_norm},
        {"weight_norm", weight_norm},
        {"selective_state_update", selective_state_update},
        {"layernorm_gated", layernorm_gated},
        {"ssd_bmm", ssd_bmm},
        {"deepseek_quant", deepseek_quant},
        {"deepseek_gemm", deepseek_gemm},
        {"decode_attention", decode_attention},
        {"merge_attn_states", merge_attn_states},
        {"fp8_group_quant", fp8_group_quant},
        {"fla_cumsum", fla_cumsum},
        {"fla_fused_recurrent", fla_fused_recurrent},
        {"dropout", tutorial_dropout},
        {"asin", tutorial_asin},
    };
    int failed = 0;
    for (const auto &[name, run] : kernels) {
      if (!wanted(name))
        continue;
      try { // a kernel that does not compile or launch leaves the others to run
        run(s);
      } catch (const std::exception &e) {
        std::fprintf(stderr, "bench_ports: %s: %s\n", name, e.what());
        ++failed;
      }
    }
    // Specializations the runtime compiled again for one more block per SM (and kept).
    std::fprintf(stderr, "bench_ports: occupancy steps taken: %llu\n",
                 static_cast<unsigned long long>(tilec::runtime_stats().occupancy_steps));
    if (failed)
      throw std::runtime_error(std::to_string(failed) + " kernel(s) failed");
  });
}
