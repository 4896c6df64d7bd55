// bench_corpus.cpp - the corpus kernels (tests/corpus/kernels/, ported from Liger-Kernel and
// FlagGems) at
// LLM shapes, for comparison with the Triton originals that bench/peers/corpus.py runs on
// the same problems: bf16 (group norm fp32), 4096 rows of 4096-14336 columns, vocabularies of
// 32000 and 128256. Block sizes and num_warps are what the originals' host code picks
// (calculate_settings: the row rounded up to a power of two; 4 warps below 2048, 8 below
// 8192, 16 below 32768, else 32), and backward kernels that sum partial weight gradients
// run one program per SM, as there. Inputs uniform in [-1, 1) (KL: log-probabilities and
// probabilities); kernels that work in place (cross-entropy, RoPE, the GLU backward passes)
// are timed on their own outputs, as the peer does. GB/s counts each input read once and each
// output written once (the formulas are the peer's). Correctness at these specializations is
// checked by gpu.corpus.* (tests/corpus). vLLM's fused MoE is compute-bound: TFLOP/s as
// 2 * tokens * top_k * N * K, its weights [E, N, K] as vLLM stores them (Mixtral's w1 half:
// E 8, N 14336, K 4096; 2048 tokens, top 2). Prints JSON lines (bench_util.h); exits 77
// without a GPU.
#include "corpus_bench_util.h"
#include "flaggems_argmax.tilec.h"
#include "liger_cross_entropy.tilec.h"
#include "liger_geglu.tilec.h"
#include "liger_group_norm.tilec.h"
#include "liger_kl_div.tilec.h"
#include "liger_layer_norm.tilec.h"
#include "liger_rms_norm.tilec.h"
#include "liger_rope.tilec.h"
#include "liger_swiglu.tilec.h"
#include "user_small.tilec.h"
#include "vllm_fused_moe.tilec.h"

#include "../tests/corpus/moe_routing.h"

#include <tilec/runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using bf16 = tl::bfloat16;
constexpr int kRows = 4096;

using corpus_bench::Dev;
using corpus_bench::Restore;
using corpus_bench::sm_count;
const corpus_bench::Reporter report{"corpus"};

std::string rows_x(int cols) { return std::to_string(kRows) + "x" + std::to_string(cols); }
std::string warps_note(int block, int warps) {
  return "BLOCK_SIZE=" + std::to_string(block) + " num_warps=" + std::to_string(warps);
}

template <int BLOCK> void rms_norm(int cols, int warps, cudaStream_t s) {
  const size_t n = size_t(kRows) * cols;
  Dev<bf16> x(n), y(n), w(cols), dy(n, -1, 1, 2), dx(n);
  Dev<float> rstd(kRows);
  auto fwd = [&] {
    rms_norm_forward_kernel<bf16, BLOCK>(tilec::Grid{kRows}, s, y.p, cols, x.p, cols, w.p,
                                         rstd.p, 1, cols, 1e-6f, 0.0f, {.num_warps = warps});
  };
  report("rms_norm fwd bf16 " + rows_x(cols), 2.0 * n * 2 + cols * 2 + kRows * 4,
         warps_note(BLOCK, warps), s, fwd);
  const int sms = sm_count(), rpp = (kRows + sms - 1) / sms;
  Dev<float> dw(size_t(sms) * cols);
  report("rms_norm bwd bf16 " + rows_x(cols), 3.0 * n * 2 + kRows * 4 + cols * 2 + sms * cols * 4.0,
         warps_note(BLOCK, warps) + " programs=SMs", s, [&] {
           rms_norm_backward_kernel<bf16, BLOCK>(tilec::Grid{uint32_t(sms)}, s, dy.p, cols, dx.p,
                                                 cols, x.p, cols, w.p, rstd.p, 1, dw.p, cols,
                                                 kRows, cols, 0.0f, rpp, {.num_warps = warps});
         });
}

template <int BLOCK> void layer_norm(int cols, int warps, cudaStream_t s) {
  const size_t n = size_t(kRows) * cols;
  Dev<bf16> x(n), y(n), w(cols), b(cols, -1, 1, 3), mean(kRows), rstd(kRows);
  report("layer_norm fwd bf16 " + rows_x(cols), 2.0 * n * 2 + 2 * cols * 2 + 2 * kRows * 2,
         warps_note(BLOCK, warps), s, [&] {
           layer_norm_forward_kernel<bf16, BLOCK>(tilec::Grid{kRows}, s, y.p, cols, x.p, cols,
                                                  w.p, b.p, mean.p, 1, rstd.p, 1, cols, 1e-6f,
                                                  {.num_warps = warps});
         });
}

/// Backward with rows_per_program a template parameter, as the original's constexpr: the
/// programs are the SMs, RPP = cdiv(rows, SMs) (32 for 4096 rows on 129 to 136 SMs).
template <int RPP, int BLOCK> void layer_norm_bwd(int cols, int warps, cudaStream_t s) {
  const size_t n = size_t(kRows) * cols;
  const int sms = sm_count();
  if ((kRows + sms - 1) / sms != RPP) {
    std::fprintf(stderr, "bench_corpus: layer_norm bwd skipped: %d SMs need rows_per_program "
                         "%d, built for %d\n", sms, (kRows + sms - 1) / sms, RPP);
    return;
  }
  Dev<bf16> x(n), w(cols), mean(kRows, 0, 0.1f), rstd(kRows, 0.9f, 1.1f), dy(n, -1, 1, 4), dx(n);
  Dev<float> dw(size_t(sms) * cols), db(size_t(sms) * cols);
  report("layer_norm bwd bf16 " + rows_x(cols),
         3.0 * n * 2 + 2 * kRows * 2 + cols * 2 + 2.0 * sms * cols * 4,
         warps_note(BLOCK, warps) + " programs=SMs", s, [&] {
           layer_norm_backward_kernel<bf16, RPP, BLOCK>(
               tilec::Grid{uint32_t(sms)}, s, x.p, cols, w.p, mean.p, 1, rstd.p, 1, dx.p, cols,
               dw.p, cols, db.p, cols, dy.p, cols, kRows, cols, {.num_warps = warps});
         });
}

template <int COLS, int BLOCK> void glu(int warps, cudaStream_t s) {
  const size_t n = size_t(kRows) * COLS;
  Dev<bf16> a(n, -4, 4), b(n, -1, 1, 5), c(n), dc(n, -1, 1, 6);
  const std::string shape = " bf16 " + rows_x(COLS), note = warps_note(BLOCK, warps);
  const tilec::Grid grid{kRows};
  // The backward passes write da and db over a and b: every launch starts from the same a, b
  // (the forward passes too, which would otherwise read what a backward left there).
  const Restore fresh(s, {{a.p, n * sizeof(bf16)}, {b.p, n * sizeof(bf16)}});
  report("swiglu fwd" + shape, 3.0 * n * 2, note, s, [&] {
    swiglu_forward_kernel<bf16, COLS, BLOCK>(grid, s, a.p, b.p, c.p, COLS, 1.0f,
                                             {.num_warps = warps});
  }, &fresh);
  report("swiglu bwd" + shape, 5.0 * n * 2, note, s, [&] {
    swiglu_backward_kernel<bf16, COLS, BLOCK>(grid, s, dc.p, a.p, b.p, COLS, 1.0f,
                                              {.num_warps = warps});
  }, &fresh);
  report("geglu fwd" + shape, 3.0 * n * 2, note, s, [&] {
    geglu_tanh_forward_kernel<bf16, COLS, BLOCK>(grid, s, a.p, b.p, c.p, COLS,
                                                 {.num_warps = warps});
  }, &fresh);
  report("geglu bwd" + shape, 5.0 * n * 2, note, s, [&] {
    geglu_tanh_backward_kernel<bf16, COLS, BLOCK>(grid, s, dc.p, a.p, b.p, COLS,
                                                  {.num_warps = warps});
  }, &fresh);
}

void rope(cudaStream_t s) {
  // Llama-3 8B attention: 32 query heads, 8 key/value heads, head dimension 128.
  constexpr int bsz = 4, sl = 2048, n_qh = 32, n_kh = 8, hd = 128;
  const size_t q_n = size_t(bsz) * sl * n_qh * hd, k_n = size_t(bsz) * sl * n_kh * hd;
  Dev<bf16> q(q_n), k(k_n), cos(size_t(sl) * hd), sin(size_t(sl) * hd, -1, 1, 7);
  const double bytes = 2.0 * (q_n + k_n) * 2 + 2.0 * sl * hd * 2;
  const std::string shape = " bf16 b4 s2048 qh32 kh8 d128";
  const tilec::Grid grid{bsz * sl};
  report("rope fwd" + shape, bytes, "BLOCK_SIZE=32 num_warps=4", s, [&] {
    triton_rope<bf16, bsz, 1, n_qh, n_kh, hd, 32, 8, 128, 32, false>(
        grid, s, q.p, n_qh * hd, k.p, n_kh * hd, cos.p, hd, sin.p, hd, sl, {.num_warps = 4});
  });
  report("rope bwd" + shape, bytes, "BLOCK_SIZE=32 num_warps=4", s, [&] {
    triton_rope<bf16, bsz, 1, n_qh, n_kh, hd, 32, 8, 128, 32, true>(
        grid, s, q.p, n_qh * hd, k.p, n_kh * hd, cos.p, hd, sin.p, hd, sl, {.num_warps = 4});
  });
}

void cross_entropy(int vocab, cudaStream_t s) {
  const size_t n = size_t(kRows) * vocab;
  Dev<bf16> x(n, -4, 4), loss(kRows);
  std::vector<int64_t> targets(kRows);
  for (int r = 0; r < kRows; ++r)
    targets[r] = (int64_t(r) * 7919) % vocab;
  int64_t *y = nullptr;
  CHECK_CUDA(cudaMalloc(&y, kRows * sizeof(int64_t)));
  CHECK_CUDA(cudaMemcpy(y, targets.data(), kRows * sizeof(int64_t), cudaMemcpyHostToDevice));
  const Restore fresh(s, {{x.p, n * sizeof(bf16)}}); // the gradient is written over the logits
  report("cross_entropy bf16 " + rows_x(vocab), 3.0 * n * 2 + kRows * 8 + kRows * 2,
         warps_note(32768, 32) + " reduction=mean", s, [&] {
           liger_cross_entropy_kernel<bf16, /*reduction mean*/ 1, 32768>(
               tilec::Grid{kRows}, s, x.p, int64_t(vocab), y, 1, loss.p, 1, vocab, kRows, -100,
               0.0f, 0.0f, {.num_warps = 32});
         }, &fresh);
  cudaFree(y);
}

void kl_div(int vocab, cudaStream_t s) {
  const size_t n = size_t(kRows) * vocab;
  Dev<bf16> y(n, -12, -8), gt(n, 0, 1e-4f, 8), grads(n);
  Dev<float> loss(kRows);
  const std::string shape = " bf16 " + rows_x(vocab), note = warps_note(16384, 16);
  report("kl_div fwd" + shape, 2.0 * n * 2 + kRows * 4, note + " reduction=batchmean", s, [&] {
    kldiv_kernel_forward<bf16, 16384, false, 3>(tilec::Grid{kRows}, s, y.p, vocab, gt.p, vocab,
                                                loss.p, 1, vocab, 1e-10f, {.num_warps = 16});
  });
  report("kl_div bwd" + shape, 2.0 * n * 2, note, s, [&] {
    kldiv_kernel_backward<bf16, 16384, false>(tilec::Grid{kRows}, s, gt.p, vocab, grads.p, vocab,
                                              vocab, {.num_warps = 16});
  });
}

void argmax(int vocab, cudaStream_t s) {
  // FlagGems' heuristics for M >= 4096: BLOCK_M 8, BLOCK_N min(4096, next power of two of N)
  const size_t n = size_t(kRows) * vocab;
  Dev<bf16> x(n, -4, 4);
  int64_t *out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, kRows * sizeof(int64_t)));
  report("argmax dim=1 bf16 " + rows_x(vocab), n * 2.0 + kRows * 8,
         "BLOCK_M=8 BLOCK_N=4096 num_warps=4", s, [&] {
           argmax_kernel<bf16, 8, 4096>(tilec::Grid{kRows / 8, 1}, s, x.p, out, kRows, vocab, 1,
                                        {.num_warps = 4});
         });
  cudaFree(out);
}

void group_norm(cudaStream_t s) {
  // [32, 256, 32x32] in 32 groups: 8 channels of 1024 per group, hidden size 8192.
  constexpr int batch = 32, channels = 256, groups = 32, spatial = 1024;
  constexpr int cpg = channels / groups, hidden = cpg * spatial;
  const size_t n = size_t(batch) * channels * spatial;
  Dev<float> x(n), y(n), w(channels), b(channels, -1, 1, 9), mean(batch * groups),
      rstd(batch * groups);
  report("group_norm fwd fp32 b32 c256 hw1024 g32", 2.0 * n * 4 + 2 * channels * 4,
         "BLOCK_SIZE=8192 num_warps=4", s, [&] {
           group_norm_forward_kernel<float, hidden>(
               tilec::Grid{batch, groups}, s, y.p, groups * hidden, hidden, x.p, groups * hidden,
               hidden, mean.p, groups, 1, rstd.p, groups, 1, w.p, b.p, hidden, cpg, 1e-6f,
               {.num_warps = 4});
         });
}

/// The small user kernels (tests/corpus/kernels/user_small.cpp) at the sizes of the first
/// reports: a 1000-wide row cumsum, an atomic column sum, a tiled transpose, bias + GELU.
void user_small(cudaStream_t s) {
  {
    const int rows = 65536, cols = 1000;
    const size_t n = size_t(rows) * cols;
    Dev<float> x(n), y(n);
    report("row_cumsum fp32 65536x1000", 2.0 * n * 4, "ROWS=4 BLOCK=1024 num_warps=4", s, [&] {
      row_cumsum<float, 4, 1024>(tilec::Grid{rows / 4}, s, x.p, y.p, rows, cols, cols,
                                 {.num_warps = 4});
    });
  }
  {
    const int M = 16384, N = 8192;
    Dev<float> x(size_t(M) * N), out(N);
    report("column_sum atomic fp32 16384x8192", 4.0 * M * N + 4.0 * N,
           "BLOCK_M=32 BLOCK_N=128 num_warps=4", s, [&] {
             column_sum_atomic<32, 128>(tilec::Grid{M / 32, N / 128}, s, x.p, out.p, M, N,
                                        {.num_warps = 4});
           });
  }
  const int M = 8192, N = 8192;
  const size_t n = size_t(M) * N;
  Dev<tl::half> x(n), y(n), bias(N);
  report("transpose fp16 8192x8192", 2.0 * n * 2, "BLOCK_M=64 BLOCK_N=64 num_warps=4", s, [&] {
    transpose<tl::half, 64, 64>(tilec::Grid{M / 64, N / 64}, s, x.p, y.p, M, N,
                                {.num_warps = 4});
  });
  report("bias_gelu fp16 8192x8192", 2.0 * n * 2 + N * 2.0, "BLOCK_M=8 BLOCK_N=1024 num_warps=4",
         s, [&] {
           bias_gelu<8, 1024>(tilec::Grid{M / 8, N / 1024}, s, x.p, bias.p, y.p, M, N,
                              {.num_warps = 4});
         });
}

/// vLLM's fused MoE: one config as vLLM picks when it has no tuned file (64 x 64 x 32, group
/// 8, 4 warps, 3 stages, the routing weights applied) and one of its tuned H100 configs' shape
/// (128 x 128 x 64, group 16, 8 warps, 3 stages).
template <int BM, int BN, int BK, int GROUP, bool MUL>
void fused_moe(int warps, cudaStream_t s) {
  const int tokens = 2048, top_k = 2, E = 8, N = 14336, K = 4096;
  corpus::MoeRouting r = corpus::route(tokens, top_k, E, BM, {}, 7);
  Dev<tl::half> a(size_t(tokens) * K), b(size_t(E) * N * K, -1, 1, 2), c(size_t(r.valid) * N);
  int32_t *ids = nullptr, *experts = nullptr, *post = nullptr;
  float *weights = nullptr;
  CHECK_CUDA(cudaMalloc(&ids, r.sorted_ids.size() * 4));
  CHECK_CUDA(cudaMalloc(&experts, r.expert_ids.size() * 4));
  CHECK_CUDA(cudaMalloc(&post, 4));
  CHECK_CUDA(cudaMalloc(&weights, r.weights.size() * 4));
  CHECK_CUDA(cudaMemcpy(ids, r.sorted_ids.data(), r.sorted_ids.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(experts, r.expert_ids.data(), r.expert_ids.size() * 4,
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(post, &r.post_padded, 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(weights, r.weights.data(), r.weights.size() * 4, cudaMemcpyHostToDevice));
  const int EM = int(r.sorted_ids.size());
  const tilec::Grid grid{uint32_t(((EM + BM - 1) / BM) * ((N + BN - 1) / BN))};
  const double ms = bench::median_ms(
      [&](int) {
        fused_moe_kernel<tl::half, BM, BN, BK, GROUP, MUL, top_k>(
            grid, s, a.p, b.p, c.p, weights, ids, experts, post, N, K, EM, r.valid, int64_t(K),
            int64_t(1), int64_t(N) * K, int64_t(1), int64_t(K), int64_t(N), int64_t(1),
            {.num_warps = warps});
      },
      s);
  const std::string note = "BLOCK_SIZE_M=" + std::to_string(BM) + " BLOCK_SIZE_N=" +
                           std::to_string(BN) + " BLOCK_SIZE_K=" + std::to_string(BK) +
                           " GROUP_SIZE_M=" + std::to_string(GROUP) +
                           " num_warps=" + std::to_string(warps) + " num_stages=3";
  bench::emit({"corpus fused_moe fp16 2048x2 tokens E8 N14336 K4096 BM" + std::to_string(BM),
               "tilec", ms, "TFLOP/s", 2.0 * r.valid * N * K / (ms * 1e9), note});
  cudaFree(ids);
  cudaFree(experts);
  cudaFree(post);
  cudaFree(weights);
}

/// BENCH_CORPUS_ONLY (e.g. "argmax,cross_entropy") runs only the named families, for
/// profiling one kernel without the others; unset, all of them.
bool wanted(const std::string &family) {
  const char *only = std::getenv("BENCH_CORPUS_ONLY");
  if (!only || !*only)
    return true;
  const std::string list = "," + std::string(only) + ",";
  return list.find("," + family + ",") != std::string::npos;
}

} // namespace

int main() {
  return bench::run_on_gpu("bench_corpus", [](cudaStream_t s) {
    if (wanted("rms_norm")) {
      rms_norm<4096>(4096, 8, s);
      rms_norm<8192>(8192, 16, s);
    }
    if (wanted("layer_norm")) {
      layer_norm<4096>(4096, 8, s);
      layer_norm<8192>(8192, 16, s);
      layer_norm_bwd<32, 4096>(4096, 8, s);
    }
    if (wanted("glu"))
      glu<14336, 16384>(16, s);
    if (wanted("rope"))
      rope(s);
    if (wanted("cross_entropy")) {
      cross_entropy(32000, s);
      cross_entropy(128256, s);
    }
    if (wanted("kl_div")) {
      kl_div(32000, s);
      kl_div(128256, s);
    }
    if (wanted("argmax")) {
      argmax(32000, s);
      argmax(128256, s);
    }
    if (wanted("group_norm"))
      group_norm(s);
    if (wanted("user_small"))
      user_small(s);
    if (wanted("moe")) {
      fused_moe<64, 64, 32, 8, true>(4, s);
      fused_moe<128, 128, 64, 16, false>(8, s);
    }
  });
}
