// The corpus kernels ported from Liger-Kernel (JSD, TVD, DyT, fused add + RMSNorm, sparsemax), Unsloth
// (RMSNorm, GEGLU, cross-entropy), FlagGems (softmax, var_mean, L2 norm, cumsum, LayerNorm,
// weight norm), Mamba (selective state update, gated LayerNorm, SSD's chunked products),
// DeepSeek-V3 (fp8 block
// quantization, the block-scaled fp8 GEMM), vLLM (decode attention over a paged KV cache),
// flash-linear-attention (the fused recurrence, forward and backward) and Triton tutorial 04
// (dropout) on the GPU against the interpreter running the same kernels on the same inputs.
#include "corpus_support.h"
#include "gpu_test_support.h"

// The generated launchers. Each header keeps its file's CUDA in a namespace of its own
// (tilec_generated::<file>) and declares only the kernels' launchers, whose names differ
// between these files: FlagGems' two helpers named prev_multiple_of stay inside the CUDA
// sources and clash nowhere here.
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
#include "liger_qwen2vl_mrope.tilec.h"
#include "liger_sparsemax.tilec.h"
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

#include <tilec/interpret.h>
#include <tilec/runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace host { // the kernels as the interpreter runs them
#include "kernels/deepseek_fp8.cpp"
#include "kernels/deepseek_fp8_gemm.cpp"
#include "kernels/fla_cumsum.cpp"
#include "kernels/fla_fused_recurrent.cpp"
#include "kernels/flaggems_cumsum.cpp"
#include "kernels/flaggems_softmax.cpp"
#include "kernels/flaggems_var_mean.cpp"
#include "kernels/flaggems_vector_norm.cpp"
#include "kernels/flaggems_weight_norm.cpp"
#include "kernels/liger_dyt.cpp"
#include "kernels/liger_fused_add_rms_norm.cpp"
#include "kernels/liger_jsd.cpp"
#include "kernels/liger_qwen2vl_mrope.cpp"
#include "kernels/liger_sparsemax.cpp"
#include "kernels/liger_tvd.cpp"
#include "kernels/mamba_layernorm_gated.cpp"
#include "kernels/mamba_selective_state_update.cpp"
#include "kernels/mamba_ssd_bmm.cpp"
#include "kernels/triton_tutorials_misc.cpp"
#include "kernels/unsloth_cross_entropy.cpp"
#include "kernels/unsloth_geglu.cpp"
#include "kernels/unsloth_rms_layernorm.cpp"
#include "kernels/vllm_decode_attention.cpp"
#include "kernels/vllm_fp8_group_quant.cpp"
#include "kernels/vllm_merge_attn_states.cpp"
// flaggems_softmax.cpp and flaggems_layer_norm.cpp both define the helper prev_multiple_of:
// the second lives in a namespace of its own, as in flaggems_mamba_interpreter_test.cpp.
namespace flaggems_ln {
#include "kernels/flaggems_layer_norm.cpp"
} // namespace flaggems_ln
} // namespace host

namespace {

using bf16 = tl::bfloat16;
using corpus::uniform;
using corpus::spread;
using tilec_test::expect_close;
using tilec_test::Mirror;

constexpr int kPad = 8;                // poisoned elements after outputs without a padding
constexpr double kBf16Rel = 2.0 / 128; // two bf16 roundings apart

uint32_t u32(int v) { return uint32_t(v); }
int cdiv(int a, int b) { return (a + b - 1) / b; }

template <class T> constexpr bool kIsFloat = std::is_same_v<T, float>;
template <class T> const char *type_name() { return kIsFloat<T> ? "float" : "bf16"; }

/// v's values as T (rounded for bf16).
template <class T> std::vector<T> as(const std::vector<float> &v) {
  return std::vector<T>(v.begin(), v.end());
}

/// v in float, for the comparison.
template <class T> std::vector<float> widen(const std::vector<T> &v) {
  return std::vector<float>(v.begin(), v.end());
}

/// n elements of poison: every byte 0xff, NaN in float and bf16, -1 in integers.
template <class T = float> std::vector<T> poison(size_t n) { return tilec_test::poisoned<T>(n); }

/// The GPU's T results against the interpreter's, compared in float (poison against poison).
template <class T>
void expect_near(const std::vector<T> &gpu, const std::vector<T> &want, double abs, double rel,
                 const std::string &what) {
  expect_close(widen(gpu), widen(want), abs, rel, what);
}

/// `float_rel` for float results, two bf16 roundings for bf16 ones.
template <class T> constexpr double rel_for(double float_rel) {
  return kIsFloat<T> ? float_rel : kBf16Rel;
}

// ---------------------------------------------------------------------------------------
// Liger JSD: beta 0 (forward KL), 1 (reverse KL) and in between, with and without labels.

template <class T, int BLOCK, bool HAS_LABEL> void jsdOnGpu(float beta) {
  SCOPED_TRACE(::testing::Message()
               << type_name<T>() << ", beta " << beta << ", labels " << HAS_LABEL);
  const int rows = 5, V = 1000, stride = 1003;
  const auto X = as<T>(uniform(size_t(rows) * stride, -9, -1, 31)); // log Q
  const auto Y = as<T>(uniform(X.size(), -9, -1, 32));              // log P
  const std::vector<int64_t> labels = {7, -100, 999, 0, 512};
  const int n_non_ignore = HAS_LABEL ? 4 : rows;
  auto loss = poison(X.size());
  auto dX = poison<T>(X.size());
  Mirror<T> gX(X), gY(Y), gdX(dX);
  Mirror<float> gloss(loss);
  Mirror<int64_t> glabels(labels);
  tilec::interpret::launch(host::jsd_kernel<T, -100, BLOCK, HAS_LABEL>, tilec::Grid{rows}, X.data(),
                           stride, Y.data(), stride, loss.data(), stride, dX.data(), stride,
                           labels.data(), beta, n_non_ignore, V);
  jsd_kernel<T, -100, BLOCK, HAS_LABEL>(tilec::Grid{rows}, nullptr, gX.ptr(), stride, gY.ptr(),
                                        stride, gloss.ptr(), stride, gdX.ptr(), stride,
                                        glabels.ptr(), beta, n_non_ignore, V, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gloss.get(), loss, 1e-6, 1e-5, "loss"); // a sum of terms up to 3 that cancel
  expect_near(gdX.get(), dX, kIsFloat<T> ? 1e-7 : 1e-6, rel_for<T>(1e-4), "dX");
}

// ---------------------------------------------------------------------------------------
// Liger TVD: per-element loss (none) and per-row loss (batchmean), one row ignored.

template <class T, int BLOCK, int REDUCTION> void tvdOnGpu() {
  SCOPED_TRACE(::testing::Message() << type_name<T>() << ", reduction " << REDUCTION);
  const int rows = 4, V = 777, stride = 781;
  auto pf = uniform(size_t(rows) * stride, 0, 0.01f, 41), qf = uniform(pf.size(), 0, 0.01f, 42);
  for (int r = 0; r < rows; ++r) // some equal elements: the gradient picks -0.5 for them
    for (int c = 0; c < V; c += 97)
      qf[size_t(r) * stride + c] = pf[size_t(r) * stride + c];
  const auto p = as<T>(pf), q = as<T>(qf);
  const std::vector<int64_t> labels = {3, -100, 776, 0};
  const bool none = REDUCTION == host::REDUCTION_MODE_NONE;
  const float scale = none ? 1.0f : 1.0f / 3; // batchmean over the 3 rows not ignored
  const int loss_stride = none ? stride : 1;
  auto loss = poison(none ? p.size() : size_t(rows) + kPad);
  auto grads = poison<T>(p.size());
  Mirror<T> gp(p), gq(q), ggrads(grads);
  Mirror<float> gloss(loss);
  Mirror<int64_t> glabels(labels);
  tilec::interpret::launch(host::tv_distance_kernel<T, -100, BLOCK, true, REDUCTION>,
                           tilec::Grid{rows}, p.data(), stride, q.data(), stride, loss.data(),
                           loss_stride, grads.data(), stride, labels.data(), V, scale);
  tv_distance_kernel<T, -100, BLOCK, true, REDUCTION>(
      tilec::Grid{rows}, nullptr, gp.ptr(), stride, gq.ptr(), stride, gloss.ptr(), loss_stride,
      ggrads.ptr(), stride, glabels.ptr(), V, scale, {.num_warps = 4});
  tilec_test::synchronize();
  expect_near(ggrads.get(), grads, 0, 0, "grads"); // +-0.5 * scale, the same comparisons
  if (none)
    expect_close(gloss.get(), loss, 0, 1e-6, "loss");
  else // row sums in another order; bf16 adds each chunk's in bf16 (tl::sum keeps the type)
    expect_close(gloss.get(), loss, 1e-8, kIsFloat<T> ? 1e-5 : 5e-2, "loss");
}

// ---------------------------------------------------------------------------------------
// Liger sparsemax: the forward at given thresholds, then the backward of its output (rows of
// 1000 in blocks of 256, or one block of 1024), both against the interpreter.

template <class T, int BLOCK> void sparsemaxOnGpu(int warps) {
  SCOPED_TRACE(::testing::Message() << type_name<T>() << ", block " << BLOCK);
  const int rows = 6, cols = 1000, stride = 1003;
  const auto x = as<T>(uniform(size_t(rows) * stride, -3, 3, 95));
  const auto tau = as<T>(uniform(size_t(rows), 0.5f, 1.5f, 96)); // some outputs zero, some not
  const auto go = as<T>(uniform(x.size(), -1, 1, 97));
  auto out = poison<T>(x.size());
  auto gi = poison<T>(x.size());
  Mirror<T> gx(x), gtau(tau), gout(out), ggo(go), ggi(gi);
  tilec::interpret::launch(host::sparsemax_forward_kernel<T, BLOCK>, tilec::Grid{rows}, x.data(),
                           stride, tau.data(), 1, out.data(), stride, cols);
  tilec::interpret::launch(host::sparsemax_backward_kernel<T, BLOCK>, tilec::Grid{rows},
                           out.data(), stride, go.data(), stride, gi.data(), stride, cols);
  sparsemax_forward_kernel<T, BLOCK>(tilec::Grid{rows}, nullptr, gx.ptr(), stride, gtau.ptr(), 1,
                                     gout.ptr(), stride, cols, {.num_warps = warps});
  sparsemax_backward_kernel<T, BLOCK>(tilec::Grid{rows}, nullptr, gout.ptr(), stride, ggo.ptr(),
                                      stride, ggi.ptr(), stride, cols, {.num_warps = warps});
  tilec_test::synchronize();
  expect_near(gout.get(), out, 0, 0, "out"); // one subtraction and a max, as the interpreter
  // The support's sum in another order: the mean differs in its last bits.
  expect_near(ggi.get(), gi, 1e-6, kIsFloat<T> ? 1e-5 : 1e-2, "gi");
}

// ---------------------------------------------------------------------------------------
// Liger DyT: forward over (column blocks, rows), backward over (column blocks, P programs),
// P smaller than the rows so that each program walks several.

template <class T, bool HAVE_BETA, int N, int FWD_BLOCK, int BWD_BLOCK>
void dytOnGpu(tilec::LaunchOptions fwd_options, tilec::LaunchOptions bwd_options) {
  SCOPED_TRACE(::testing::Message() << type_name<T>() << ", beta " << HAVE_BETA);
  const int M = 7, P = 3, da_cols = cdiv(N, 512);
  const auto x = as<T>(uniform(size_t(M) * N, -3, 3, 51));
  const auto dy = as<T>(uniform(x.size(), -1, 1, 52));
  const auto gamma = as<T>(uniform(N, -1, 1, 53)), beta = as<T>(uniform(N, -1, 1, 54));
  const auto alpha = as<T>({0.7f});
  auto y = poison<T>(x.size() + kPad), dx = poison<T>(x.size() + kPad);
  auto da = poison(size_t(P) * da_cols), dg = poison(size_t(P) * N + kPad);
  auto db = poison(size_t(P) * N + kPad);
  Mirror<T> gx(x), gdy(dy), ggamma(gamma), gbeta(beta), galpha(alpha), gy(y), gdx(dx);
  Mirror<float> gda(da), gdg(dg), gdb(db);
  const tilec::Grid fwd_grid{u32(cdiv(N, FWD_BLOCK)), M}, bwd_grid{u32(cdiv(N, BWD_BLOCK)), P};
  tilec::interpret::launch(host::dyt_fwd_kernel<T, HAVE_BETA, N, FWD_BLOCK>, fwd_grid, x.data(),
                           y.data(), alpha.data(), gamma.data(), HAVE_BETA ? beta.data() : nullptr);
  tilec::interpret::launch(host::dyt_bwd_kernel<T, HAVE_BETA, N, BWD_BLOCK>, bwd_grid, dy.data(),
                           dx.data(), da.data(), dg.data(), HAVE_BETA ? db.data() : nullptr,
                           x.data(), alpha.data(), gamma.data(), M);
  dyt_fwd_kernel<T, HAVE_BETA, N, FWD_BLOCK>(fwd_grid, nullptr, gx.ptr(), gy.ptr(), galpha.ptr(),
                                             ggamma.ptr(), HAVE_BETA ? gbeta.ptr() : nullptr,
                                             fwd_options);
  dyt_bwd_kernel<T, HAVE_BETA, N, BWD_BLOCK>(bwd_grid, nullptr, gdy.ptr(), gdx.ptr(), gda.ptr(),
                                             gdg.ptr(), HAVE_BETA ? gdb.ptr() : nullptr, gx.ptr(),
                                             galpha.ptr(), ggamma.ptr(), M, bwd_options);
  tilec_test::synchronize();
  expect_near(gy.get(), y, kIsFloat<T> ? 1e-6 : 1e-3, rel_for<T>(1e-5), "y");
  expect_near(gdx.get(), dx, kIsFloat<T> ? 1e-6 : 1e-3, rel_for<T>(1e-5), "dx");
  expect_close(gdg.get(), dg, 1e-5, 1e-5, "dgamma partials");
  expect_close(gdb.get(), db, 1e-5, 1e-5, "dbeta partials");  // all poison without beta
  expect_close(gda.get(), da, 1e-4, 1e-4, "dalpha partials"); // block sums in another order
}

// ---------------------------------------------------------------------------------------
// Liger fused add + RMSNorm: the three casting modes, backward with and without dS_out.

template <class T, int MODE, int RPP, int BLOCK, bool HAS_DS_OUT>
void fusedAddRmsNormOnGpu(int n, tilec::LaunchOptions options) {
  SCOPED_TRACE(::testing::Message()
               << type_name<T>() << ", casting mode " << MODE << ", dS_out " << HAS_DS_OUT);
  const int rows = 37, stride = n + 3, programs = cdiv(rows, RPP);
  const float eps = 1e-6f, offset = MODE == host::CASTING_MODE_GEMMA ? 1.0f : 0.25f;
  const auto x = as<T>(uniform(size_t(rows) * stride, -2, 2, 61));
  const auto r = as<T>(uniform(x.size(), -1, 1, 62)), w = as<T>(uniform(n, -1, 1, 63));
  const auto dy = as<T>(uniform(x.size(), -1, 1, 64)), ds_out = as<T>(uniform(x.size(), -1, 1, 65));
  auto y = poison<T>(x.size()), s = poison<T>(x.size()), dx = poison<T>(x.size());
  auto rstd = poison(size_t(rows) + kPad), dw = poison(size_t(programs) * n + kPad);
  Mirror<T> gx(x), gr(r), gw(w), gdy(dy), gds(ds_out), gy(y), gs(s), gdx(dx);
  Mirror<float> grstd(rstd), gdw(dw);
  tilec::interpret::launch(host::fused_add_rms_norm_forward_kernel<T, MODE, BLOCK>,
                           tilec::Grid{rows}, y.data(), stride, s.data(), stride, x.data(), stride,
                           r.data(), stride, w.data(), 1, rstd.data(), 1, n, eps, offset);
  tilec::interpret::launch(
      host::fused_add_rms_norm_backward_kernel<T, RPP, MODE, BLOCK, HAS_DS_OUT>,
      tilec::Grid{u32(programs)}, dy.data(), stride, ds_out.data(), stride, dx.data(), stride,
      s.data(), stride, w.data(), 1, rstd.data(), 1, dw.data(), n, rows, n, offset);
  fused_add_rms_norm_forward_kernel<T, MODE, BLOCK>(
      tilec::Grid{rows}, nullptr, gy.ptr(), stride, gs.ptr(), stride, gx.ptr(), stride, gr.ptr(),
      stride, gw.ptr(), 1, grstd.ptr(), 1, n, eps, offset, options);
  fused_add_rms_norm_backward_kernel<T, RPP, MODE, BLOCK, HAS_DS_OUT>(
      tilec::Grid{u32(programs)}, nullptr, gdy.ptr(), stride, gds.ptr(), stride, gdx.ptr(), stride,
      gs.ptr(), stride, gw.ptr(), 1, grstd.ptr(), 1, gdw.ptr(), n, rows, n, offset, options);
  tilec_test::synchronize();
  expect_near(gs.get(), s, 0, kIsFloat<T> ? 1e-6 : 1.0 / 128, "S"); // X + R, one rounding
  expect_close(grstd.get(), rstd, 0, 1e-5, "rstd");
  expect_near(gy.get(), y, kIsFloat<T> ? 1e-5 : 1e-3, rel_for<T>(1e-5), "Y");
  expect_near(gdx.get(), dx, kIsFloat<T> ? 1e-5 : 1e-2, rel_for<T>(1e-4), "dX");
  // bf16: a product rounded to bf16 may round the other way on one side, per row summed
  expect_close(gdw.get(), dw, kIsFloat<T> ? 1e-4 : 5e-2, rel_for<T>(1e-4), "dW partials");
}

// ---------------------------------------------------------------------------------------
// Unsloth RMS LayerNorm: Llama and Gemma forward, backward in place over dY (Llama) or into
// dX (Gemma). The row strides and the row length are template arguments.

template <class T, bool GEMMA> void unslothRmsOnGpu() {
  SCOPED_TRACE(::testing::Message() << type_name<T>() << ", gemma " << GEMMA);
  constexpr int rows = 9, n = 1000, stride = 1003;
  const float eps = 1e-5f;
  const auto x = as<T>(uniform(size_t(rows) * stride, -2, 2, 71));
  const auto w = as<T>(uniform(n, -1, 1, 72));
  auto dy = as<T>(uniform(x.size(), -1, 1, 73));
  for (int row = 0; row < rows; ++row) // dY's gap poisoned: the in-place write must skip it
    for (int c = n; c < stride; ++c)
      std::memset(static_cast<void *>(&dy[size_t(row) * stride + c]), 0xff, sizeof(T));
  auto y = poison<T>(x.size()), dx = poison<T>(x.size()), r = poison(size_t(rows) + kPad);
  Mirror<T> gx(x), gw(w), gdy(dy), gy(y), gdx(dx);
  Mirror<float> gr(r);
  if constexpr (GEMMA) {
    tilec::interpret::launch(host::gemma_rms_layernorm_forward<T, stride, stride, 1, 1, n, 1024>,
                             tilec::Grid{rows}, y.data(), x.data(), w.data(), r.data(), eps);
    gemma_rms_layernorm_forward<T, stride, stride, 1, 1, n, 1024>(
        tilec::Grid{rows}, nullptr, gy.ptr(), gx.ptr(), gw.ptr(), gr.ptr(), eps, {.num_warps = 4});
  } else {
    tilec::interpret::launch(host::rms_layernorm_forward<T, stride, stride, 1, 1, n, 1024>,
                             tilec::Grid{rows}, y.data(), x.data(), w.data(), r.data(), eps);
    rms_layernorm_forward<T, stride, stride, 1, 1, n, 1024>(
        tilec::Grid{rows}, nullptr, gy.ptr(), gx.ptr(), gw.ptr(), gr.ptr(), eps, {.num_warps = 4});
  }
  tilec::interpret::launch(
      host::rms_layernorm_backward<T, stride, stride, stride, 1, 1, n, GEMMA, 1024>,
      tilec::Grid{rows}, dy.data(), dx.data(), x.data(), w.data(), r.data(), eps);
  rms_layernorm_backward<T, stride, stride, stride, 1, 1, n, GEMMA, 1024>(
      tilec::Grid{rows}, nullptr, gdy.ptr(), gdx.ptr(), gx.ptr(), gw.ptr(), gr.ptr(), eps,
      {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gr.get(), r, 0, 1e-5, "r");
  // Llama rounds x * r to T before the weight: a bf16 rounding that may go the other way
  expect_near(gy.get(), y, kIsFloat<T> ? 1e-5 : 1e-3, rel_for<T>(1e-5), "Y");
  expect_near(gdy.get(), dy, kIsFloat<T> ? 1e-5 : 1e-2, rel_for<T>(1e-4),
              GEMMA ? "dY (not written)" : "dX over dY");
  expect_near(gdx.get(), dx, kIsFloat<T> ? 1e-5 : 1e-2, rel_for<T>(1e-4),
              GEMMA ? "dX" : "dX argument (not written)");
}

// ---------------------------------------------------------------------------------------
// Unsloth GEGLU: exact and approximate, forward and backward (in place over DW, e and g),
// both indexing widths.

template <class T, bool EXACT, bool LONG_INDEXING> void unslothGegluOnGpu() {
  SCOPED_TRACE(::testing::Message()
               << type_name<T>() << ", exact " << EXACT << ", long " << LONG_INDEXING);
  const int n = 3 * 1024 + 77, guard = 67, programs = cdiv(n, 1024);
  auto e = as<T>(uniform(n + guard, -4, 4, 81)), g = as<T>(uniform(n + guard, -2, 2, 82));
  auto DW = as<T>(uniform(n + guard, -1, 1, 83));
  for (int i = n; i < n + guard; ++i) // poison past n in the in-place buffers
    for (auto *v : {&e, &g, &DW})
      std::memset(static_cast<void *>(&(*v)[i]), 0xff, sizeof(T));
  auto h = poison<T>(n + guard);
  Mirror<T> ge(e), gg(g), gDW(DW), gh(h);
  if constexpr (EXACT) {
    tilec::interpret::launch(host::exact_forward_kernel<T, 1024, LONG_INDEXING>,
                             tilec::Grid{u32(programs)}, e.data(), g.data(), h.data(), int64_t(n));
    tilec::interpret::launch(host::exact_backward_kernel<T, 1024, LONG_INDEXING>,
                             tilec::Grid{u32(programs)}, DW.data(), e.data(), g.data(), int64_t(n));
    exact_forward_kernel<T, 1024, LONG_INDEXING>(tilec::Grid{u32(programs)}, nullptr, ge.ptr(),
                                                 gg.ptr(), gh.ptr(), int64_t(n), {.num_warps = 4});
    exact_backward_kernel<T, 1024, LONG_INDEXING>(tilec::Grid{u32(programs)}, nullptr, gDW.ptr(),
                                                  ge.ptr(), gg.ptr(), int64_t(n), {.num_warps = 4});
  } else {
    tilec::interpret::launch(host::approx_forward_kernel<T, 1024, LONG_INDEXING>,
                             tilec::Grid{u32(programs)}, e.data(), g.data(), h.data(), int64_t(n));
    tilec::interpret::launch(host::approx_backward_kernel<T, 1024, LONG_INDEXING>,
                             tilec::Grid{u32(programs)}, DW.data(), e.data(), g.data(), int64_t(n));
    approx_forward_kernel<T, 1024, LONG_INDEXING>(tilec::Grid{u32(programs)}, nullptr, ge.ptr(),
                                                  gg.ptr(), gh.ptr(), int64_t(n), {.num_warps = 4});
    approx_backward_kernel<T, 1024, LONG_INDEXING>(tilec::Grid{u32(programs)}, nullptr, gDW.ptr(),
                                                   ge.ptr(), gg.ptr(), int64_t(n),
                                                   {.num_warps = 4});
  }
  tilec_test::synchronize();
  // bf16: f rounded to bf16 before the product, then the product: up to two roundings apart
  const double abs_tol = kIsFloat<T> ? 1e-6 : 1e-3, rel = rel_for<T>(1e-5);
  expect_near(gh.get(), h, abs_tol, rel, "h");
  expect_near(gDW.get(), DW, abs_tol, rel, "h over DW");
  expect_near(ge.get(), e, abs_tol, rel, "df over e");
  expect_near(gg.get(), g, abs_tol, rel, "de over g");
}

// ---------------------------------------------------------------------------------------
// Unsloth cross-entropy: whole-row forward, chunked forward, backward in place over the
// logits with each side's own logsumexp.

template <class T, bool SOFTCAP_ON, bool SCALE_ON> void unslothCrossEntropyOnGpu() {
  SCOPED_TRACE(::testing::Message()
               << type_name<T>() << ", softcap " << SOFTCAP_ON << ", scale " << SCALE_ON);
  constexpr int rows = 6, V = 1500, stride = 1503, FWD = 2048, CHUNK = 512, N_CHUNKS = 3;
  constexpr int BWD = 1024;
  const float softcap = SOFTCAP_ON ? 7.5f : 0.0f, scale = SCALE_ON ? 0.625f : 0.0f;
  auto logits = as<T>(uniform(size_t(rows) * stride, -8, 8, 91));
  for (int row = 0; row < rows; ++row) // the gaps poisoned: the in-place backward skips them
    for (int c = V; c < stride; ++c)
      std::memset(static_cast<void *>(&logits[size_t(row) * stride + c]), 0xff, sizeof(T));
  const std::vector<int64_t> labels = {0, 1499, -100, 600, 512, 1023};
  const auto dlosses = uniform(rows, 0.5f, 1.5f, 92);
  auto loss = poison(size_t(rows) + kPad), lse = poison(size_t(rows) + kPad);
  auto closs = poison(size_t(rows) + kPad), clse = poison(size_t(rows) * N_CHUNKS + kPad);
  Mirror<T> glogits(logits);
  Mirror<float> gdlosses(dlosses), gloss(loss), glse(lse), gcloss(closs), gclse(clse);
  Mirror<int64_t> glabels(labels);
  const tilec::Grid chunk_grid{rows, N_CHUNKS}, bwd_grid{rows, u32(cdiv(V, BWD))};
  tilec::interpret::launch(host::cross_entropy_forward<T, V, FWD, SOFTCAP_ON, SCALE_ON>,
                           tilec::Grid{rows}, logits.data(), stride, loss.data(), lse.data(),
                           labels.data(), softcap, scale);
  tilec::interpret::launch(
      host::chunked_cross_entropy_forward<T, stride, V, N_CHUNKS, CHUNK, SOFTCAP_ON, SCALE_ON>,
      chunk_grid, logits.data(), closs.data(), clse.data(), labels.data(), softcap, scale);
  cross_entropy_forward<T, V, FWD, SOFTCAP_ON, SCALE_ON>(
      tilec::Grid{rows}, nullptr, glogits.ptr(), stride, gloss.ptr(), glse.ptr(), glabels.ptr(),
      softcap, scale, {.num_warps = 8});
  chunked_cross_entropy_forward<T, stride, V, N_CHUNKS, CHUNK, SOFTCAP_ON, SCALE_ON>(
      chunk_grid, nullptr, glogits.ptr(), gcloss.ptr(), gclse.ptr(), glabels.ptr(), softcap, scale,
      {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(glse.get(), lse, 1e-5, 1e-6, "logsumexp");
  expect_close(gloss.get(), loss, 1e-5, 1e-5, "loss");
  expect_close(gclse.get(), clse, 1e-5, 1e-6, "chunk logsumexp");
  expect_close(gcloss.get(), closs, 1e-6, 1e-6, "chunked -x");
  tilec::interpret::launch(host::cross_entropy_backward<T, stride, 1, V, BWD, SOFTCAP_ON, SCALE_ON>,
                           bwd_grid, logits.data(), dlosses.data(), lse.data(), labels.data(),
                           softcap, scale);
  cross_entropy_backward<T, stride, 1, V, BWD, SOFTCAP_ON, SCALE_ON>(
      bwd_grid, nullptr, glogits.ptr(), gdlosses.ptr(), glse.ptr(), glabels.ptr(), softcap, scale,
      {.num_warps = 4});
  tilec_test::synchronize();
  expect_near(glogits.get(), logits, 1e-7, rel_for<T>(1e-4), "dlogits");
}

// ---------------------------------------------------------------------------------------
// FlagGems softmax: along the last dimension (inner) and a middle one (non-inner), one tile
// per program or swept in tiles; the backward kernels the same ways.

/// An input with some -inf entries (the kernels' all_neg_inf case), never a whole row.
std::vector<float> softmax_input(size_t n, unsigned seed) {
  auto x = uniform(n, -4, 4, seed);
  for (size_t i = 3; i < n; i += 97)
    x[i] = -INFINITY;
  return x;
}

/// softmax_kernel_inner<TO, TI, TILE_N, ONE_TILE> over [M, N] on both sides.
template <class TO, class TI, int TILE_N, bool ONE_TILE> void softmaxInnerOnGpu() {
  SCOPED_TRACE(::testing::Message() << "inner, " << type_name<TI>() << " to " << type_name<TO>()
                                    << ", TILE_N " << TILE_N);
  const int M = 37, N = 1000;
  const auto x = as<TI>(softmax_input(size_t(M) * N, 11));
  auto y = poison<TO>(x.size() + kPad);
  Mirror<TI> gx(x);
  Mirror<TO> gy(y);
  tilec::interpret::launch(host::softmax_kernel_inner<TO, TI, TILE_N, ONE_TILE>,
                           tilec::Grid{u32(M)}, y.data(), x.data(), M, N);
  softmax_kernel_inner<TO, TI, TILE_N, ONE_TILE>(tilec::Grid{u32(M)}, nullptr, gy.ptr(), gx.ptr(),
                                                 M, N, {.num_warps = 4});
  tilec_test::synchronize();
  expect_near(gy.get(), y, 1e-7, rel_for<TO>(1e-5), "y");
}

template <int TILE_N, bool ONE_TILE> void softmaxNonInnerOnGpu() {
  SCOPED_TRACE(::testing::Message() << "non-inner, TILE_N " << TILE_N);
  const int M = 3, N = 37, K = 45;
  constexpr int TILE_K = 4;
  const auto x = softmax_input(size_t(M) * N * K, 12);
  auto y = poison(x.size() + kPad);
  Mirror<float> gx(x), gy(y);
  const tilec::Grid grid{u32(M), u32(cdiv(K, TILE_K))};
  tilec::interpret::launch(host::softmax_kernel_non_inner<float, float, TILE_N, TILE_K, ONE_TILE>,
                           grid, y.data(), x.data(), M, N, K);
  softmax_kernel_non_inner<float, float, TILE_N, TILE_K, ONE_TILE>(
      grid, nullptr, gy.ptr(), gx.ptr(), M, N, K, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gy.get(), y, 1e-7, 1e-5, "y");
}

template <class T, int TILE_N, bool ONE_TILE> void softmaxBackwardInnerOnGpu() {
  SCOPED_TRACE(::testing::Message()
               << "backward inner, " << type_name<T>() << ", TILE_N " << TILE_N);
  const int M = 37, N = 1000;
  constexpr int TILE_M = 4;
  const auto y = as<T>(uniform(size_t(M) * N, 0, 0.01f, 13));
  const auto dy = as<T>(uniform(y.size(), -1, 1, 14));
  auto dx = poison<T>(y.size() + kPad);
  Mirror<T> gy(y), gdy(dy), gdx(dx);
  const tilec::Grid grid{u32(cdiv(M, TILE_M))};
  tilec::interpret::launch(host::softmax_backward_kernel_inner<T, TILE_M, TILE_N, ONE_TILE>, grid,
                           y.data(), dy.data(), dx.data(), M, N);
  softmax_backward_kernel_inner<T, TILE_M, TILE_N, ONE_TILE>(grid, nullptr, gy.ptr(), gdy.ptr(),
                                                             gdx.ptr(), M, N, {.num_warps = 4});
  tilec_test::synchronize();
  // out * (dout - sum): the sum in another order, the difference may cancel
  expect_near(gdx.get(), dx, kIsFloat<T> ? 1e-8 : 1e-6, rel_for<T>(1e-5), "dx");
}

template <int TILE_N, bool ONE_TILE> void softmaxBackwardNonInnerOnGpu() {
  SCOPED_TRACE(::testing::Message() << "backward non-inner, TILE_N " << TILE_N);
  const int M = 3, N = 37, K = 45;
  constexpr int TILE_K = 4;
  const auto y = uniform(size_t(M) * N * K, 0, 0.05f, 15), dy = uniform(y.size(), -1, 1, 16);
  auto dx = poison(y.size() + kPad);
  Mirror<float> gy(y), gdy(dy), gdx(dx);
  const tilec::Grid grid{u32(M), u32(cdiv(K, TILE_K))};
  tilec::interpret::launch(host::softmax_backward_kernel_non_inner<float, TILE_N, TILE_K, ONE_TILE>,
                           grid, y.data(), dy.data(), dx.data(), M, N, K);
  softmax_backward_kernel_non_inner<float, TILE_N, TILE_K, ONE_TILE>(
      grid, nullptr, gy.ptr(), gdy.ptr(), gdx.ptr(), M, N, K, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gdx.get(), dx, 1e-8, 1e-5, "dx");
}

// ---------------------------------------------------------------------------------------
// FlagGems var_mean and L2 norm: per row of a matrix, and over a whole tensor in two kernels.

template <class T> void varMeanRowsOnGpu() {
  SCOPED_TRACE(::testing::Message() << "rows, " << type_name<T>());
  const int M = 37, N = 1000;
  constexpr int BLOCK_M = 4, BLOCK_N = 256;
  const auto x = as<T>(uniform(size_t(M) * N, -3, 5, 21));
  auto var = poison<T>(size_t(M) + kPad), mean = poison<T>(size_t(M) + kPad);
  Mirror<T> gx(x), gvar(var), gmean(mean);
  const tilec::Grid grid{u32(cdiv(M, BLOCK_M))};
  tilec::interpret::launch(host::var_mean_welford_kernel<T, BLOCK_M, BLOCK_N>, grid, x.data(),
                           var.data(), mean.data(), M, N, 1.0f);
  var_mean_welford_kernel<T, BLOCK_M, BLOCK_N>(grid, nullptr, gx.ptr(), gvar.ptr(), gmean.ptr(), M,
                                               N, 1.0f, {.num_warps = 4});
  tilec_test::synchronize();
  expect_near(gmean.get(), mean, kIsFloat<T> ? 1e-5 : 1e-3, rel_for<T>(1e-5), "mean");
  expect_near(gvar.get(), var, kIsFloat<T> ? 1e-5 : 1e-3, rel_for<T>(1e-4), "var");
}

template <class T> void l2NormRowsOnGpu() {
  SCOPED_TRACE(::testing::Message() << "rows, " << type_name<T>());
  const int M = 37, N = 1000;
  constexpr int BLOCK_M = 4, BLOCK_N = 256;
  const auto x = as<T>(uniform(size_t(M) * N, -2, 2, 23));
  auto out = poison<T>(size_t(M) + kPad);
  Mirror<T> gx(x), gout(out);
  const tilec::Grid grid{u32(cdiv(M, BLOCK_M))};
  tilec::interpret::launch(host::l2_norm_kernel<T, BLOCK_M, BLOCK_N>, grid, x.data(), out.data(), M,
                           N);
  l2_norm_kernel<T, BLOCK_M, BLOCK_N>(grid, nullptr, gx.ptr(), gout.ptr(), M, N, {.num_warps = 4});
  tilec_test::synchronize();
  expect_near(gout.get(), out, 1e-6, rel_for<T>(1e-5), "norm");
}

// ---------------------------------------------------------------------------------------
// FlagGems LayerNorm forward: the multiline (N <= 128), persistent (N <= 4096) and loop
// (Welford over tiles) kernels, with and without weight and bias.

template <class T, bool HW, bool HB> void flagGemsLayerNormOnGpu() {
  SCOPED_TRACE(::testing::Message() << type_name<T>() << ", weight " << HW << ", bias " << HB);
  const float eps = 1e-5f;
  const double abs_tol = kIsFloat<T> ? 1e-5 : 1e-2, rel = rel_for<T>(1e-5);
  auto run = [&](const char *what, int M, int N, auto host_kernel, auto gpu_kernel,
                 tilec::Grid grid) {
    SCOPED_TRACE(what);
    const auto x = as<T>(uniform(size_t(M) * N, -3, 5, 41));
    const auto w = as<T>(uniform(N, -1, 1, 42)), b = as<T>(uniform(N, -1, 1, 43));
    auto y = poison<T>(x.size() + kPad);
    auto mean = poison(size_t(M) + kPad), rstd = poison(size_t(M) + kPad);
    Mirror<T> gx(x), gw(w), gb(b), gy(y);
    Mirror<float> gmean(mean), grstd(rstd);
    tilec::interpret::launch(host_kernel, grid, x.data(), y.data(), HW ? w.data() : nullptr,
                             HB ? b.data() : nullptr, mean.data(), rstd.data(), M, N, eps);
    gpu_kernel(grid, nullptr, gx.ptr(), gy.ptr(), HW ? gw.ptr() : nullptr, HB ? gb.ptr() : nullptr,
               gmean.ptr(), grstd.ptr(), M, N, eps, tilec::LaunchOptions{.num_warps = 4});
    tilec_test::synchronize();
    expect_close(gmean.get(), mean, 1e-6, 1e-5, "mean");
    expect_close(grstd.get(), rstd, 1e-6, 1e-5, "rstd");
    expect_near(gy.get(), y, abs_tol, rel, "y");
  };
  {
    constexpr int TILE_M = 8, TILE_N = 128; // cdiv(1024, TILE_N), next_power_of_2(N)
    const int M = 29, N = 100;
    run("multiline (N <= 128)", M, N,
        host::flaggems_ln::layer_norm_persistent_kernel_multiline<T, float, TILE_M, TILE_N, HW, HB>,
        layer_norm_persistent_kernel_multiline<T, float, TILE_M, TILE_N, HW, HB>,
        tilec::Grid{u32(cdiv(M, TILE_M))});
  }
  run("persistent (N <= 4096)", 29, 777,
      host::flaggems_ln::layer_norm_persistent_kernel<T, float, 1024, HW, HB>,
      layer_norm_persistent_kernel<T, float, 1024, HW, HB>, tilec::Grid{29});
  run("loop (Welford over 256-wide tiles)", 7, 1000,
      host::flaggems_ln::layer_norm_loop_kernel<T, float, 256, HW, HB>,
      layer_norm_loop_kernel<T, float, 256, HW, HB>, tilec::Grid{7});
}

// ---------------------------------------------------------------------------------------
// FlagGems weight norm: a norm per row (dim 0) or per column (the last dim).

template <class T, int BR, int BC, bool FIRST> void weightNormOnGpu() {
  SCOPED_TRACE(::testing::Message() << type_name<T>() << (FIRST ? ", dim 0" : ", last dim")
                                    << ", blocks " << BR << " x " << BC);
  const float eps = std::numeric_limits<float>::min(); // torch.finfo(torch.float32).tiny
  const int M = 37, N = 300, norms = FIRST ? M : N;
  const auto v = as<T>(uniform(size_t(M) * N, -1, 1, 51));
  const auto g = as<T>(uniform(norms, 0.5f, 2, FIRST ? 52 : 53));
  auto out = poison<T>(v.size() + kPad), norm = poison<T>(size_t(norms) + kPad);
  Mirror<T> gv(v), gg(g), gout(out), gnorm(norm);
  const tilec::Grid grid{u32(FIRST ? cdiv(M, BR) : cdiv(N, BC))};
  if constexpr (FIRST) {
    tilec::interpret::launch(host::weight_norm_kernel_first<T, BR, BC>, grid, out.data(),
                             norm.data(), v.data(), g.data(), M, N, eps);
    weight_norm_kernel_first<T, BR, BC>(grid, nullptr, gout.ptr(), gnorm.ptr(), gv.ptr(), gg.ptr(),
                                        M, N, eps, {.num_warps = 4});
  } else {
    tilec::interpret::launch(host::weight_norm_kernel_last<T, BR, BC>, grid, out.data(),
                             norm.data(), v.data(), g.data(), M, N, eps);
    weight_norm_kernel_last<T, BR, BC>(grid, nullptr, gout.ptr(), gnorm.ptr(), gv.ptr(), gg.ptr(),
                                       M, N, eps, {.num_warps = 4});
  }
  tilec_test::synchronize();
  expect_near(gnorm.get(), norm, 1e-6, rel_for<T>(1e-5), "norm");
  expect_near(gout.get(), out, kIsFloat<T> ? 1e-6 : 1e-4, rel_for<T>(1e-5), "out");
}

// ---------------------------------------------------------------------------------------
// Mamba: selective state update (state in place) and gated LayerNorm / RMSNorm.

template <class TS, class T, class TW, bool SP, bool TIE, bool HDB, bool HD, bool HZ, bool HI>
void selectiveStateUpdateOnGpu() {
  SCOPED_TRACE(::testing::Message()
               << type_name<T>() << ", softplus " << SP << " tie_hdim " << TIE << " dt_bias " << HDB
               << " D " << HD << " z " << HZ << " state_batch_indices " << HI);
  const int batch = 3, nheads = 4, ngroups = 2, dim = 50, dstate = 13, nstates = 5;
  constexpr int BLOCK_M = 32, BLOCK_DSTATE = 16; // the host's choice for dstate <= 16
  const int ratio = nheads / ngroups, xb = nheads * dim + 7;
  // the layouts of flaggems_mamba_interpreter_test.cpp (TIE_HDIM: dt, dt_bias and A per head)
  auto state = as<TS>(uniform(size_t(nstates) * nheads * dim * dstate, -1, 1, 61));
  const auto x = as<T>(uniform(size_t(batch) * xb, -1, 1, 62));
  auto dtf = uniform(size_t(batch) * nheads * (TIE ? 1 : dim), -3, 1, 63);
  if (SP) // some dt above the softplus threshold (20), which stay as they are
    for (size_t i = 0; i < dtf.size(); i += 5)
      dtf[i] = 21.0f + float(i % 3);
  const auto dt = as<T>(dtf);
  const auto dt_bias = as<TW>(uniform(size_t(nheads) * (TIE ? 1 : dim), -0.5f, 0.5f, 64));
  const auto A = as<TW>(uniform(size_t(nheads) * (TIE ? 1 : dim * dstate), -2, -0.1f, 65));
  const auto B = as<T>(uniform(size_t(batch) * ngroups * dstate, -1, 1, 66));
  const auto C = as<T>(uniform(size_t(batch) * ngroups * dstate, -1, 1, 67));
  const auto D = as<TW>(uniform(size_t(nheads) * dim, -1, 1, 68));
  const auto z = as<T>(uniform(size_t(batch) * nheads * dim, -2, 2, 69));
  const std::vector<int32_t> indices = {4, -1, 1}; // batch entry 1 is a padding token
  auto out = poison<T>(size_t(batch) * nheads * dim + kPad);
  const std::vector<int> strides = {nheads * dim * dstate,
                                    dim * dstate,
                                    dstate,
                                    1, // state
                                    xb,
                                    dim,
                                    1, // x
                                    TIE ? nheads : nheads * dim,
                                    TIE ? 1 : dim,
                                    TIE ? 0 : 1, // dt
                                    TIE ? 1 : dim,
                                    TIE ? 0 : 1, // dt_bias
                                    TIE ? 1 : dim * dstate,
                                    TIE ? 0 : dstate,
                                    TIE ? 0 : 1, // A
                                    ngroups * dstate,
                                    dstate,
                                    1, // B
                                    ngroups * dstate,
                                    dstate,
                                    1, // C
                                    dim,
                                    1, // D
                                    nheads * dim,
                                    dim,
                                    1, // z
                                    nheads * dim,
                                    dim,
                                    1}; // out
  ASSERT_EQ(strides.size(), 29u);
  Mirror<TS> gstate(state);
  Mirror<T> gx(x), gdt(dt), gB(B), gC(C), gz(z), gout(out);
  Mirror<TW> gdt_bias(dt_bias), gA(A), gD(D);
  Mirror<int32_t> gindices(indices);
  const tilec::Grid grid{u32(cdiv(dim, BLOCK_M)), u32(batch), u32(nheads)};
  spread<29>(strides, [&](auto... stride) {
    tilec::interpret::launch(
        host::_selective_scan_update_kernel<TS, T, TW, SP, TIE, BLOCK_M, HDB, HD, HZ, HI,
                                            BLOCK_DSTATE>,
        grid, state.data(), x.data(), dt.data(), HDB ? dt_bias.data() : nullptr, A.data(),
        B.data(), C.data(), HD ? D.data() : nullptr, HZ ? z.data() : nullptr, out.data(),
        HI ? indices.data() : nullptr, batch, nheads, dim, dstate, ratio, stride...);
    _selective_scan_update_kernel<TS, T, TW, SP, TIE, BLOCK_M, HDB, HD, HZ, HI, BLOCK_DSTATE>(
        grid, nullptr, gstate.ptr(), gx.ptr(), gdt.ptr(), HDB ? gdt_bias.ptr() : nullptr, gA.ptr(),
        gB.ptr(), gC.ptr(), HD ? gD.ptr() : nullptr, HZ ? gz.ptr() : nullptr, gout.ptr(),
        HI ? gindices.ptr() : nullptr, batch, nheads, dim, dstate, ratio, stride...,
        {.num_warps = 4});
  });
  tilec_test::synchronize();
  // the rows no batch entry points at keep their values on both sides
  expect_near(gstate.get(), state, kIsFloat<TS> ? 1e-6 : 1e-3, rel_for<TS>(1e-5), "state");
  expect_near(gout.get(), out, kIsFloat<T> ? 1e-5 : 1e-2, rel_for<T>(1e-5), "out");
}

template <class T, class TW, bool HB, bool HZ, bool NBG, bool RMS> void gatedNormOnGpu() {
  SCOPED_TRACE(::testing::Message() << type_name<T>() << ", bias " << HB << " z " << HZ
                                    << " norm_before_gate " << NBG << " rms " << RMS);
  const int M = 7, group_size = 300, ngroups = 2, N = group_size * ngroups;
  const int sx = N + 5, sy = N + 3, sz = N + 9;
  constexpr int BLOCK_N = 512; // next_power_of_2(group_size)
  const float eps = 1e-6f;
  const auto x = as<T>(uniform(size_t(M) * sx, -2, 3, 71));
  const auto z = as<T>(uniform(size_t(M) * sz, -2, 2, 72));
  const auto w = as<TW>(uniform(N, -1, 1, 73)), b = as<TW>(uniform(N, -1, 1, 74));
  auto y = poison<T>(size_t(M) * sy), mean = poison(size_t(ngroups) * M + kPad);
  auto rstd = poison(size_t(ngroups) * M + kPad);
  Mirror<T> gx(x), gz(z), gy(y);
  Mirror<TW> gw(w), gb(b);
  Mirror<float> gmean(mean), grstd(rstd);
  const tilec::Grid grid{u32(M), u32(ngroups)};
  tilec::interpret::launch(host::_layer_norm_fwd_1pass_kernel<T, TW, BLOCK_N, HB, HZ, NBG, RMS>,
                           grid, x.data(), y.data(), w.data(), HB ? b.data() : nullptr,
                           HZ ? z.data() : nullptr, RMS ? nullptr : mean.data(), rstd.data(), sx,
                           sy, sz, M, group_size, eps);
  _layer_norm_fwd_1pass_kernel<T, TW, BLOCK_N, HB, HZ, NBG, RMS>(
      grid, nullptr, gx.ptr(), gy.ptr(), gw.ptr(), HB ? gb.ptr() : nullptr, HZ ? gz.ptr() : nullptr,
      RMS ? nullptr : gmean.ptr(), grstd.ptr(), sx, sy, sz, M, group_size, eps, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gmean.get(), mean, 1e-6, 1e-5, "mean"); // all poison for RMSNorm
  expect_close(grstd.get(), rstd, 1e-6, 1e-5, "rstd");
  expect_near(gy.get(), y, kIsFloat<T> ? 1e-5 : 1e-2, rel_for<T>(1e-5), "y");
}

} // namespace

// ---------------------------------------------------------------------------------------

TEST(GpuPorts, LigerJsd) {
  REQUIRE_GPU();
  jsdOnGpu<float, 256, true>(0.0f); // forward KL
  jsdOnGpu<float, 256, true>(1.0f); // reverse KL
  jsdOnGpu<float, 256, true>(0.3f);
  jsdOnGpu<float, 256, false>(0.5f);
  jsdOnGpu<bf16, 1024, true>(0.3f);
}

TEST(GpuPorts, LigerTvd) {
  REQUIRE_GPU();
  tvdOnGpu<float, 256, host::REDUCTION_MODE_NONE>();
  tvdOnGpu<float, 256, host::REDUCTION_MODE_BATCHMEAN>();
  tvdOnGpu<bf16, 1024, host::REDUCTION_MODE_BATCHMEAN>();
}

TEST(GpuPorts, LigerSparsemax) {
  REQUIRE_GPU();
  sparsemaxOnGpu<float, 256>(4);
  sparsemaxOnGpu<bf16, 1024>(8);
}

TEST(GpuPorts, LigerDyt) {
  REQUIRE_GPU();
  dytOnGpu<float, true, 2500, 1024, 1024>({.num_warps = 4}, {.num_warps = 4});
  dytOnGpu<float, false, 2500, 1024, 1024>({.num_warps = 4}, {.num_warps = 4});
  dytOnGpu<bf16, true, 4096, 2048, 4096>({.num_warps = 8, .num_stages = 1},
                                         {.num_warps = 16, .num_stages = 2});
}

TEST(GpuPorts, LigerFusedAddRmsNorm) {
  REQUIRE_GPU();
  fusedAddRmsNormOnGpu<float, host::CASTING_MODE_LLAMA, 8, 1024, true>(1000, {.num_warps = 4});
  fusedAddRmsNormOnGpu<float, host::CASTING_MODE_GEMMA, 8, 1024, false>(1000, {.num_warps = 4});
  fusedAddRmsNormOnGpu<float, host::CASTING_MODE_NONE, 8, 1024, true>(1000, {.num_warps = 4});
  fusedAddRmsNormOnGpu<bf16, host::CASTING_MODE_LLAMA, 32, 4096, true>(
      4000, {.num_warps = 8, .num_stages = 2});
}

TEST(GpuPorts, UnslothRmsLayernorm) {
  REQUIRE_GPU();
  unslothRmsOnGpu<float, false>();
  unslothRmsOnGpu<float, true>();
  unslothRmsOnGpu<bf16, false>();
}

TEST(GpuPorts, UnslothGeglu) {
  REQUIRE_GPU();
  unslothGegluOnGpu<float, true, false>();
  unslothGegluOnGpu<float, true, true>();
  unslothGegluOnGpu<float, false, false>();
  unslothGegluOnGpu<float, false, true>();
  unslothGegluOnGpu<bf16, true, false>();
  unslothGegluOnGpu<bf16, false, true>();
}

TEST(GpuPorts, UnslothCrossEntropy) {
  REQUIRE_GPU();
  unslothCrossEntropyOnGpu<float, false, false>();
  unslothCrossEntropyOnGpu<float, true, true>();
  unslothCrossEntropyOnGpu<float, true, false>();
  unslothCrossEntropyOnGpu<bf16, true, true>();
}

TEST(GpuPorts, FlagGemsSoftmax) {
  REQUIRE_GPU();
  softmaxInnerOnGpu<float, float, 1024, true>();
  softmaxInnerOnGpu<float, float, 256, false>();
  softmaxInnerOnGpu<float, bf16, 1024, true>(); // half_to_float: bf16 in, float out
  softmaxNonInnerOnGpu<64, true>();
  softmaxNonInnerOnGpu<16, false>();
  softmaxBackwardInnerOnGpu<float, 1024, true>();
  softmaxBackwardInnerOnGpu<float, 256, false>();
  softmaxBackwardInnerOnGpu<bf16, 1024, true>();
  softmaxBackwardNonInnerOnGpu<64, true>();
  softmaxBackwardNonInnerOnGpu<16, false>();
}

TEST(GpuPorts, FlagGemsVarMean) {
  REQUIRE_GPU();
  varMeanRowsOnGpu<float>();
  varMeanRowsOnGpu<bf16>();
  {
    SCOPED_TRACE("whole tensor");
    const int N = 10007, BLOCK_NUM = cdiv(N, 1024);
    constexpr int BLOCK_N2 = 16; // next_power_of_2(BLOCK_NUM), FlagGems' heuristic
    const auto x = uniform(N, -1, 3, 22);
    auto acc = poison(size_t(BLOCK_NUM) + kPad), average = acc, count = acc;
    auto var = poison(1 + kPad), mean = poison(1 + kPad);
    Mirror<float> gx(x), gacc(acc), gaverage(average), gcount(count), gvar(var), gmean(mean);
    tilec::interpret::launch(host::var_mean_kernel_1<float, 1024>, tilec::Grid{u32(BLOCK_NUM)},
                             x.data(), acc.data(), average.data(), count.data(), N);
    tilec::interpret::launch(host::var_mean_kernel_2<float, BLOCK_N2>, tilec::Grid{1}, acc.data(),
                             average.data(), count.data(), var.data(), mean.data(), N, 0.0f,
                             BLOCK_NUM);
    var_mean_kernel_1<float, 1024>(tilec::Grid{u32(BLOCK_NUM)}, nullptr, gx.ptr(), gacc.ptr(),
                                   gaverage.ptr(), gcount.ptr(), N, {.num_warps = 4});
    var_mean_kernel_2<float, BLOCK_N2>(tilec::Grid{1}, nullptr, gacc.ptr(), gaverage.ptr(),
                                       gcount.ptr(), gvar.ptr(), gmean.ptr(), N, 0.0f, BLOCK_NUM,
                                       {.num_warps = 4});
    tilec_test::synchronize();
    expect_close(gcount.get(), count, 0, 0, "count");
    expect_close(gaverage.get(), average, 1e-6, 1e-5, "average");
    expect_close(gacc.get(), acc, 1e-2, 1e-4, "acc"); // sum(x^2) - count * average^2
    expect_close(gmean.get(), mean, 1e-6, 1e-5, "mean");
    expect_close(gvar.get(), var, 1e-5, 1e-4, "var");
  }
}

TEST(GpuPorts, FlagGemsVectorNorm) {
  REQUIRE_GPU();
  l2NormRowsOnGpu<float>();
  l2NormRowsOnGpu<bf16>();
  {
    SCOPED_TRACE("whole tensor");
    const int M = 10007;
    constexpr int BLOCK_SIZE = 128, BLOCK_MID = 128; // the host's next_power_of_2 choices
    const int MID_SIZE = cdiv(M, BLOCK_SIZE);
    const auto x = uniform(M, -2, 2, 24);
    auto mid = poison(size_t(MID_SIZE) + kPad), out = poison(1 + kPad);
    Mirror<float> gx(x), gmid(mid), gout(out);
    tilec::interpret::launch(host::l2_norm_kernel_1<float, BLOCK_SIZE>, tilec::Grid{u32(MID_SIZE)},
                             x.data(), mid.data(), M);
    tilec::interpret::launch(host::l2_norm_kernel_2<float, BLOCK_MID>, tilec::Grid{1}, mid.data(),
                             out.data(), MID_SIZE);
    l2_norm_kernel_1<float, BLOCK_SIZE>(tilec::Grid{u32(MID_SIZE)}, nullptr, gx.ptr(), gmid.ptr(),
                                        M, {.num_warps = 4});
    l2_norm_kernel_2<float, BLOCK_MID>(tilec::Grid{1}, nullptr, gmid.ptr(), gout.ptr(), MID_SIZE,
                                       {.num_warps = 4});
    tilec_test::synchronize();
    expect_close(gmid.get(), mid, 1e-5, 1e-5, "mid");
    expect_close(gout.get(), out, 1e-5, 1e-5, "norm");
  }
}

TEST(GpuPorts, FlagGemsCumsum) {
  REQUIRE_GPU();
  {
    // scan-then-fan over a flat array: 1024-element blocks, their 7 sums scanned in place by
    // one block of 8, then each block offset by the previous blocks' sum
    SCOPED_TRACE("flat, float");
    const int n = 3001 + 1024 * 4, part_num = cdiv(n, 1024);
    const auto x = uniform(n, -1, 1, 31);
    auto y = poison(n + kPad), partial = poison(part_num), partial2 = poison(1);
    Mirror<float> gx(x), gy(y), gpartial(partial), gpartial2(partial2);
    tilec::interpret::launch(host::scan_part_sum_kernel<float, float, float, float, 1024>,
                             tilec::Grid{u32(part_num)}, x.data(), y.data(), partial.data(), n,
                             part_num);
    tilec::interpret::launch(host::scan_part_sum_kernel<float, float, float, float, 8>,
                             tilec::Grid{1}, partial.data(), partial.data(), partial2.data(),
                             part_num, 1);
    tilec::interpret::launch(host::add_base_sum_kernel<float, float, 1024>,
                             tilec::Grid{u32(part_num)}, y.data(), partial.data(), n, part_num);
    scan_part_sum_kernel<float, float, float, float, 1024>(tilec::Grid{u32(part_num)}, nullptr,
                                                           gx.ptr(), gy.ptr(), gpartial.ptr(), n,
                                                           part_num, {.num_warps = 4});
    scan_part_sum_kernel<float, float, float, float, 8>(tilec::Grid{1}, nullptr, gpartial.ptr(),
                                                        gpartial.ptr(), gpartial2.ptr(), part_num,
                                                        1, {.num_warps = 4});
    add_base_sum_kernel<float, float, 1024>(tilec::Grid{u32(part_num)}, nullptr, gy.ptr(),
                                            gpartial.ptr(), n, part_num, {.num_warps = 4});
    tilec_test::synchronize();
    expect_close(gy.get(), y, 1e-4, 1e-5, "y");
    expect_close(gpartial.get(), partial, 1e-4, 1e-5, "scanned partial sums");
    expect_close(gpartial2.get(), partial2, 1e-4, 1e-5, "total");
  }
  {
    // int32 input scanned in int32, written as int64: exact
    SCOPED_TRACE("flat, int32 to int64");
    const int n = 2500, part_num = cdiv(n, 1024);
    const auto x = tilec_test::random_ints<int32_t>(n, -1000, 1000, 32);
    std::vector<int64_t> y(n + kPad, -7), partial(part_num, -7), partial2(1, -7);
    Mirror<int32_t> gx(x);
    Mirror<int64_t> gy(y), gpartial(partial), gpartial2(partial2);
    tilec::interpret::launch(host::scan_part_sum_kernel<int32_t, int64_t, int64_t, int32_t, 1024>,
                             tilec::Grid{u32(part_num)}, x.data(), y.data(), partial.data(), n,
                             part_num);
    tilec::interpret::launch(host::scan_part_sum_kernel<int64_t, int64_t, int64_t, int64_t, 4>,
                             tilec::Grid{1}, partial.data(), partial.data(), partial2.data(),
                             part_num, 1);
    tilec::interpret::launch(host::add_base_sum_kernel<int64_t, int64_t, 1024>,
                             tilec::Grid{u32(part_num)}, y.data(), partial.data(), n, part_num);
    scan_part_sum_kernel<int32_t, int64_t, int64_t, int32_t, 1024>(
        tilec::Grid{u32(part_num)}, nullptr, gx.ptr(), gy.ptr(), gpartial.ptr(), n, part_num,
        {.num_warps = 4});
    scan_part_sum_kernel<int64_t, int64_t, int64_t, int64_t, 4>(
        tilec::Grid{1}, nullptr, gpartial.ptr(), gpartial.ptr(), gpartial2.ptr(), part_num, 1,
        {.num_warps = 4});
    add_base_sum_kernel<int64_t, int64_t, 1024>(tilec::Grid{u32(part_num)}, nullptr, gy.ptr(),
                                                gpartial.ptr(), n, part_num, {.num_warps = 4});
    tilec_test::synchronize();
    EXPECT_EQ(gy.get(), y);
    EXPECT_EQ(gpartial.get(), partial);
    EXPECT_EQ(gpartial2.get(), partial2);
  }
  {
    // [A, B, C] along B: 1024-element blocks, the [A, part_num, C] partial sums scanned in
    // place (one block of 8), then the fan-out
    SCOPED_TRACE("middle dimension");
    const int A = 3, B = 5000, C = 5, part_num = cdiv(B, 1024);
    const auto x = uniform(size_t(A) * B * C, -1, 1, 33);
    auto y = poison(x.size() + kPad), partial = poison(size_t(A) * part_num * C);
    auto partial2 = poison(size_t(A) * C);
    Mirror<float> gx(x), gy(y), gpartial(partial), gpartial2(partial2);
    const tilec::Grid grid{u32(A), u32(part_num), u32(C)}, grid2{u32(A), 1, u32(C)};
    tilec::interpret::launch(host::scan_part_sum_abc_kernel<float, float, float, float, 1024>, grid,
                             x.data(), y.data(), partial.data(), B, C, part_num);
    tilec::interpret::launch(host::scan_part_sum_abc_kernel<float, float, float, float, 8>, grid2,
                             partial.data(), partial.data(), partial2.data(), part_num, C, 1);
    tilec::interpret::launch(host::add_base_sum_abc_kernel<float, float, 1024>, grid, y.data(),
                             partial.data(), B, C, part_num);
    scan_part_sum_abc_kernel<float, float, float, float, 1024>(
        grid, nullptr, gx.ptr(), gy.ptr(), gpartial.ptr(), B, C, part_num, {.num_warps = 4});
    scan_part_sum_abc_kernel<float, float, float, float, 8>(grid2, nullptr, gpartial.ptr(),
                                                            gpartial.ptr(), gpartial2.ptr(),
                                                            part_num, C, 1, {.num_warps = 4});
    add_base_sum_abc_kernel<float, float, 1024>(grid, nullptr, gy.ptr(), gpartial.ptr(), B, C,
                                                part_num, {.num_warps = 4});
    tilec_test::synchronize();
    expect_close(gy.get(), y, 1e-4, 1e-5, "y");
    expect_close(gpartial2.get(), partial2, 1e-4, 1e-5, "totals");
  }
  {
    // rows too long for one tile: 5 chunks of 3 tiles per row, their sums scanned by the
    // root kernel (one tile of 8), then each chunk's scan offset by the previous chunks' sum
    SCOPED_TRACE("rows, reduce then scan");
    const int M = 4, N = 3001, num_ctas = 5;
    constexpr int TILE = 256, ROOT_TILE = 8;
    const int tiles_per_cta = cdiv(cdiv(N, TILE), num_ctas);
    const auto x = uniform(size_t(M) * N, -1, 1, 34);
    auto y = poison(x.size() + kPad), block_sums = poison(size_t(M) * num_ctas);
    auto prefix = poison(size_t(M) * num_ctas);
    Mirror<float> gx(x), gy(y), gblock_sums(block_sums), gprefix(prefix);
    const tilec::Grid grid{u32(M), u32(num_ctas)};
    tilec::interpret::launch(host::reduce_then_scan_block_sum_kernel_row<float, float, float, TILE>,
                             grid, x.data(), block_sums.data(), N, tiles_per_cta);
    tilec::interpret::launch(
        host::reduce_then_scan_root_scan_kernel_row<float, float, float, ROOT_TILE>,
        tilec::Grid{u32(M)}, block_sums.data(), prefix.data(), num_ctas);
    tilec::interpret::launch(
        host::reduce_then_scan_block_scan_kernel_row<float, float, float, float, TILE>, grid,
        x.data(), prefix.data(), y.data(), N, num_ctas, tiles_per_cta);
    reduce_then_scan_block_sum_kernel_row<float, float, float, TILE>(
        grid, nullptr, gx.ptr(), gblock_sums.ptr(), N, tiles_per_cta, {.num_warps = 4});
    reduce_then_scan_root_scan_kernel_row<float, float, float, ROOT_TILE>(
        tilec::Grid{u32(M)}, nullptr, gblock_sums.ptr(), gprefix.ptr(), num_ctas, {.num_warps = 4});
    reduce_then_scan_block_scan_kernel_row<float, float, float, float, TILE>(
        grid, nullptr, gx.ptr(), gprefix.ptr(), gy.ptr(), N, num_ctas, tiles_per_cta,
        {.num_warps = 4});
    tilec_test::synchronize();
    expect_close(gblock_sums.get(), block_sums, 1e-5, 1e-5, "block sums");
    expect_close(gprefix.get(), prefix, 1e-4, 1e-5, "prefix");
    expect_close(gy.get(), y, 1e-4, 1e-5, "y");
  }
  {
    // rows up to 16384 long: the root kernel alone, one tile per row; float, int32 (to int64)
    // and bf16 (accumulated in float)
    SCOPED_TRACE("rows, one tile");
    const int M = 5, N = 1000;
    const auto xf = uniform(size_t(M) * N, -1, 1, 35);
    const auto xb = as<bf16>(xf);
    const auto xi = tilec_test::random_ints<int32_t>(M * N, -100000, 100000, 36);
    auto y = poison(xf.size() + kPad);
    auto yb = poison<bf16>(xf.size() + kPad);
    std::vector<int64_t> yi(size_t(M) * N + kPad, -7);
    Mirror<float> gxf(xf), gy(y);
    Mirror<bf16> gxb(xb), gyb(yb);
    Mirror<int32_t> gxi(xi);
    Mirror<int64_t> gyi(yi);
    const tilec::Grid grid{u32(M)};
    tilec::interpret::launch(host::reduce_then_scan_root_scan_kernel_row<float, float, float, 1024>,
                             grid, xf.data(), y.data(), N);
    tilec::interpret::launch(
        host::reduce_then_scan_root_scan_kernel_row<int32_t, int64_t, int64_t, 1024>, grid,
        xi.data(), yi.data(), N);
    tilec::interpret::launch(host::reduce_then_scan_root_scan_kernel_row<bf16, bf16, float, 1024>,
                             grid, xb.data(), yb.data(), N);
    reduce_then_scan_root_scan_kernel_row<float, float, float, 1024>(grid, nullptr, gxf.ptr(),
                                                                     gy.ptr(), N, {.num_warps = 4});
    reduce_then_scan_root_scan_kernel_row<int32_t, int64_t, int64_t, 1024>(
        grid, nullptr, gxi.ptr(), gyi.ptr(), N, {.num_warps = 4});
    reduce_then_scan_root_scan_kernel_row<bf16, bf16, float, 1024>(grid, nullptr, gxb.ptr(),
                                                                   gyb.ptr(), N, {.num_warps = 4});
    tilec_test::synchronize();
    expect_close(gy.get(), y, 1e-4, 1e-5, "y float");
    EXPECT_EQ(gyi.get(), yi);
    expect_near(gyb.get(), yb, 1e-3, kBf16Rel, "y bf16");
  }
}

TEST(GpuPorts, FlagGemsLayerNorm) {
  REQUIRE_GPU();
  flagGemsLayerNormOnGpu<float, true, true>();
  flagGemsLayerNormOnGpu<float, false, false>();
  flagGemsLayerNormOnGpu<float, true, false>();
  flagGemsLayerNormOnGpu<bf16, true, true>();
}

TEST(GpuPorts, FlagGemsWeightNorm) {
  REQUIRE_GPU();
  weightNormOnGpu<float, 4, 64, true>();  // dim 0: a norm per row
  weightNormOnGpu<float, 16, 4, false>(); // last dim: 4 columns per program
  weightNormOnGpu<float, 64, 1, false>(); // last dim: one column per program ([1, 64] tiles)
  weightNormOnGpu<bf16, 4, 64, true>();
}

TEST(GpuPorts, MambaSelectiveStateUpdate) {
  REQUIRE_GPU();
  selectiveStateUpdateOnGpu<float, float, float, true, false, true, true, true, false>();
  selectiveStateUpdateOnGpu<float, float, float, true, false, true, true, true, true>();
  selectiveStateUpdateOnGpu<float, float, float, false, false, false, false, false, false>();
  selectiveStateUpdateOnGpu<float, float, float, true, true, true, true, true, false>();
  selectiveStateUpdateOnGpu<float, float, float, false, true, false, true, false, true>();
  selectiveStateUpdateOnGpu<bf16, bf16, bf16, true, false, true, true, true, true>();
}

TEST(GpuPorts, MambaGatedLayerNorm) {
  REQUIRE_GPU();
  gatedNormOnGpu<float, float, true, true, true, false>();
  gatedNormOnGpu<float, float, true, true, false, false>();
  gatedNormOnGpu<float, float, false, true, false, true>();
  gatedNormOnGpu<float, float, false, true, true, true>();
  gatedNormOnGpu<float, float, true, false, false, false>();
  gatedNormOnGpu<float, float, false, false, true, true>();
  gatedNormOnGpu<bf16, bf16, true, true, true, false>();
}

TEST(GpuPorts, TutorialDropout) {
  REQUIRE_GPU();
  const int n = 3001;
  const float p = 0.3f;
  const auto x = uniform(n, -2, 2, 81);
  const auto keep = tilec_test::random_ints<int32_t>(n, 0, 1, 82);
  auto out = poison(n + kPad);
  Mirror<float> gx(x), gout(out);
  Mirror<int32_t> gkeep(keep);
  const tilec::Grid grid{u32(cdiv(n, 1024))};
  tilec::interpret::launch(host::_dropout<1024>, grid, x.data(), keep.data(), out.data(), n, p);
  _dropout<1024>(grid, nullptr, gx.ptr(), gkeep.ptr(), gout.ptr(), n, p, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gout.get(), out, 0, 1e-6, "out"); // x / (1 - p): Triton's division on the GPU
}

TEST(GpuPorts, TutorialAsin) {
  REQUIRE_GPU();
  const int n = 3001;
  const auto x = uniform(n, -1, 1, 83);
  auto y = poison(n + kPad);
  Mirror<float> gx(x), gy(y);
  const tilec::Grid grid{u32(cdiv(n, 1024))};
  tilec::interpret::launch(host::asin_kernel<1024>, grid, x.data(), y.data(), n);
  asin_kernel<1024>(grid, nullptr, gx.ptr(), gy.ptr(), n, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gy.get(), y, 1e-6, 1e-6, "y"); // asinf against std::asin: within an ulp or two
}

// ---------------------------------------------------------------------------------------
// DeepSeek-V3: activations quantized per 128 columns, a weight per 128 x 128 square (partial
// squares at its edges) and back, and the block-scaled GEMM at M, N not multiples of its blocks
// and K with a partial last step.

using e4m3 = tl::float8_e4m3;
// Relative error of div.full.f32 (2 ulp) with a margin; one e4m3 step (3 mantissa bits, and
// the subnormal spacing 2^-9 near zero).
constexpr double kDivUlps = 4.0 / (1 << 23);
constexpr double kE4m3Step = 1.0 / 8, kE4m3Subnormal = 1.0 / 512;

TEST(GpuPorts, DeepSeekQuantizers) {
  REQUIRE_GPU();
  const int rows = 5, K = 384, M = 200, N = 300, gm = 2, gn = 3;
  const auto x = as<bf16>(uniform(size_t(rows) * K, -3, 3, 91));
  std::vector<e4m3> y(x.size() + kPad, e4m3(-1.0f));
  auto s = poison(size_t(rows) * K / 128 + kPad);
  Mirror<bf16> gx(x);
  Mirror<e4m3> gy(y);
  Mirror<float> gs(s);
  const tilec::Grid act_grid{u32(rows * K / 128)};
  tilec::interpret::launch(host::act_quant_kernel<bf16, e4m3, 128>, act_grid, x.data(), y.data(),
                           s.data());
  act_quant_kernel<bf16, e4m3, 128>(act_grid, nullptr, gx.ptr(), gy.ptr(), gs.ptr(),
                                    {.num_warps = 4});
  tilec_test::synchronize();
  // A float `/` is Triton's div.full.f32 (within 2 ulp); the interpreter divides exactly.
  // So a scale may differ in its last bits, and a value whose quotient lands on a rounding
  // boundary by one e4m3 step.
  expect_close(gs.get(), s, 0, kDivUlps, "act_quant scales");
  expect_close(widen(gy.get()), widen(y), kE4m3Subnormal, kE4m3Step, "act_quant values");

  const auto w = as<bf16>(uniform(size_t(M) * N, -0.5f, 0.5f, 92));
  std::vector<e4m3> q(w.size() + kPad, e4m3(-1.0f));
  auto ws = poison(size_t(gm) * gn + kPad);
  std::vector<bf16> back(w.size() + kPad, bf16(-1.0f));
  Mirror<bf16> gw(w), gback(back);
  Mirror<e4m3> gq(q);
  Mirror<float> gws(ws);
  const tilec::Grid grid{u32(gm), u32(gn)};
  tilec::interpret::launch(host::weight_quant_kernel<bf16, e4m3, 128>, grid, w.data(), q.data(),
                           ws.data(), M, N);
  tilec::interpret::launch(host::weight_dequant_kernel<e4m3, bf16, 128>, grid, q.data(),
                           ws.data(), back.data(), M, N);
  weight_quant_kernel<bf16, e4m3, 128>(grid, nullptr, gw.ptr(), gq.ptr(), gws.ptr(), M, N,
                                       {.num_warps = 4});
  // The dequantizer reads the interpreter's values and scales: a product, exact on both.
  Mirror<e4m3> hq(q);
  Mirror<float> hws(ws);
  weight_dequant_kernel<e4m3, bf16, 128>(grid, nullptr, hq.ptr(), hws.ptr(), gback.ptr(), M, N,
                                         {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gws.get(), ws, 0, kDivUlps, "weight_quant scales");
  expect_close(widen(gq.get()), widen(q), kE4m3Subnormal, kE4m3Step, "weight_quant values");
  expect_near(gback.get(), back, 0, 0, "weight_dequant");
}

// vLLM's per-token-group fp8 quantization: row-major e8m0 scales (1 warp, as vLLM launches
// it), column-major scales, and the fused silu-and-multiply variant, against the interpreter.
TEST(GpuPorts, VllmFp8GroupQuant) {
  REQUIRE_GPU();
  const int rows = 6, group = 96, groups = 3, cols = group * groups, stride = cols + 8;
  const auto y = as<bf16>(uniform(size_t(rows) * stride, -20, 20, 101));
  const float lo = -448.0f, hi = 448.0f, eps = 1e-10f;
  {
    std::vector<e4m3> q(size_t(rows) * cols + kPad, e4m3(-1.0f));
    auto sc = poison(size_t(rows) * groups + kPad);
    Mirror<bf16> gy(y);
    Mirror<e4m3> gq(q);
    Mirror<float> gs(sc);
    const tilec::Grid grid{u32(rows * groups)};
    tilec::interpret::launch(host::per_token_group_quant_fp8<bf16, e4m3, true, 128>, grid,
                             y.data(), q.data(), sc.data(), group, cols, stride, eps, lo, hi);
    per_token_group_quant_fp8<bf16, e4m3, true, 128>(grid, nullptr, gy.ptr(), gq.ptr(), gs.ptr(),
                                                     group, cols, stride, eps, lo, hi,
                                                     {.num_warps = 1});
    tilec_test::synchronize();
    // e8m0 scales are powers of two: the approximate division's last bits cannot move
    // ceil(log2) unless the quotient is a power of two itself.
    expect_close(gs.get(), sc, 0, 0, "e8m0 scales");
    expect_close(widen(gq.get()), widen(q), 0, 0, "values");
  }
  {
    const int col_stride = rows + 2;
    std::vector<e4m3> q(size_t(rows) * cols + kPad, e4m3(-1.0f));
    auto sc = poison(size_t(groups) * col_stride + kPad);
    Mirror<bf16> gy(y);
    Mirror<e4m3> gq(q);
    Mirror<float> gs(sc);
    const tilec::Grid grid{u32(rows * groups)};
    tilec::interpret::launch(host::per_token_group_quant_fp8_colmajor<bf16, e4m3, false, 128>, grid,
                             y.data(), q.data(), sc.data(), group, cols, stride, col_stride, eps,
                             lo, hi);
    per_token_group_quant_fp8_colmajor<bf16, e4m3, false, 128>(
        grid, nullptr, gy.ptr(), gq.ptr(), gs.ptr(), group, cols, stride, col_stride, eps, lo, hi,
        {.num_warps = 1});
    tilec_test::synchronize();
    expect_close(gs.get(), sc, 0, kDivUlps, "column-major scales"); // div.full.f32
    expect_close(widen(gq.get()), widen(q), kE4m3Subnormal, kE4m3Step, "values");
  }
  {
    const int M = 16, N = 512, N_2 = N / 2;
    const int64_t col_stride = M + 4;
    const auto x = as<bf16>(uniform(size_t(M) * N, -6, 6, 102));
    std::vector<e4m3> q(size_t(M) * N_2 + kPad, e4m3(-1.0f));
    auto sc = poison(size_t(N_2 / 128) * size_t(col_stride) + kPad);
    Mirror<bf16> gx(x);
    Mirror<e4m3> gq(q);
    Mirror<float> gs(sc);
    const tilec::Grid grid{u32(M / 8 + 1), u32(N_2 / 128)}; // a program past the last rows
    tilec::interpret::launch(
        host::silu_mul_per_token_group_quant_fp8_colmajor<bf16, e4m3, false, 128, 8, 128>, grid,
        x.data(), q.data(), sc.data(), M, N, col_stride, eps, lo, hi);
    silu_mul_per_token_group_quant_fp8_colmajor<bf16, e4m3, false, 128, 8, 128>(
        grid, nullptr, gx.ptr(), gq.ptr(), gs.ptr(), M, N, col_stride, eps, lo, hi,
        {.num_warps = 4});
    tilec_test::synchronize();
    // The GPU's exp may differ from the host's in its last bit, which can move a bf16 silu by
    // one step: scales and values within that.
    expect_close(gs.get(), sc, 0, 1e-2, "silu-mul scales");
    expect_close(widen(gq.get()), widen(q), 1.0 / 512, 0.13, "silu-mul values");
  }
}

TEST(GpuPorts, DeepSeekBlockScaledGemm) {
  REQUIRE_GPU();
  constexpr int N = 200, K = 320;
  const int M = 77, kb = 3, nb = 2;
  const auto a = as<e4m3>(uniform(size_t(M) * K, -2, 2, 93));
  const auto b = as<e4m3>(uniform(size_t(N) * K, -2, 2, 94));
  const auto a_s = uniform(size_t(M) * kb, 0.5f, 2, 95);
  const auto b_s = uniform(size_t(nb) * kb, 0.5f, 2, 96);
  auto c = poison<bf16>(size_t(M) * N + kPad);
  Mirror<e4m3> ga(a), gb(b);
  Mirror<float> ga_s(a_s), gb_s(b_s);
  Mirror<bf16> gc(c);
  const tilec::Grid grid{u32(cdiv(M, 32)), u32(cdiv(N, 64))};
  tilec::interpret::launch(host::fp8_gemm_kernel<e4m3, bf16, N, K, 32, 64, 128>, grid, a.data(),
                           b.data(), c.data(), a_s.data(), b_s.data(), M);
  fp8_gemm_kernel<e4m3, bf16, N, K, 32, 64, 128>(grid, nullptr, ga.ptr(), gb.ptr(), gc.ptr(),
                                                 ga_s.ptr(), gb_s.ptr(), M,
                                                 {.num_warps = 8, .num_stages = 4});
  tilec_test::synchronize();
  // The tensor cores sum each step's fp8 products in fewer bits than float (about 14 kept):
  // per step up to 128 products of up to 4, scaled by up to 4: 2^-10 of ~2000 is ~2.
  expect_near(gc.get(), c, 2.0, kBf16Rel, "c");
}

// ---------------------------------------------------------------------------------------
// vLLM's decode attention in bf16: MHA with a logit cap, GQA (4 query heads per KV head) and
// MLA (576-wide keys, the second dot for the last 64), over pages in shuffled order, sequences
// of 1, 77 and 300 tokens in 8 splits (some empty), both stages on each side.

namespace {

struct DecodeProblem {
  int H, H_KV, Lk, Lv, page;
  std::vector<int> lens{1, 77, 300};
  int pages_per_seq() const { return cdiv(300, page); }
  int slots() const { return int(lens.size()) * pages_per_seq() * page; }
  std::vector<int32_t> page_table() const { // page i of sequence b: a reversed order
    std::vector<int32_t> t(lens.size() * size_t(pages_per_seq()));
    for (size_t i = 0; i < t.size(); ++i)
      t[i] = int32_t(t.size() - 1 - i);
    return t;
  }
};

constexpr int kDecodeSplits = 8;

/// Stage 1 (launch) then stage 2, on the GPU and in the interpreter, outputs compared.
/// `abs`: the outputs' absolute tolerance (the scores' rounding differs by kernel).
template <int Lv, class Stage1, class HostStage1>
void decodeOnGpu(const DecodeProblem &p, Stage1 stage1, HostStage1 host_stage1, unsigned seed,
                 double abs = 1e-3) {
  const int batch = int(p.lens.size());
  const auto q = as<bf16>(uniform(size_t(batch) * p.H * p.Lk, -1, 1, seed));
  const auto k = as<bf16>(uniform(size_t(p.slots()) * p.H_KV * p.Lk, -1, 1, seed + 1));
  const auto v = as<bf16>(uniform(size_t(p.slots()) * p.H_KV * p.Lv, -1, 1, seed + 2));
  const auto table = p.page_table();
  const std::vector<int32_t> lens(p.lens.begin(), p.lens.end());
  auto mid = poison(size_t(batch) * p.H * kDecodeSplits * (p.Lv + 1));
  auto o = poison<bf16>(size_t(batch) * p.H * p.Lv + kPad);
  Mirror<bf16> gq(q), gk(k), gv(v), go(o);
  Mirror<int32_t> gtable(table), glens(lens);
  Mirror<float> gmid(mid);
  host_stage1(q.data(), k.data(), v.data(), table.data(), lens.data(), mid.data());
  stage1(gq.ptr(), gk.ptr(), gv.ptr(), gtable.ptr(), glens.ptr(), gmid.ptr());
  constexpr int BLOCK_DV = Lv <= 128 ? 128 : 512;
  const int ob = p.H * kDecodeSplits * (p.Lv + 1), oh = kDecodeSplits * (p.Lv + 1);
  const tilec::Grid grid2{u32(batch), u32(p.H)};
  tilec::interpret::launch(host::_fwd_kernel_stage2<bf16, kDecodeSplits, BLOCK_DV, Lv>, grid2,
                           mid.data(), o.data(), lens.data(), ob, oh, p.Lv + 1, p.H * p.Lv, p.Lv);
  _fwd_kernel_stage2<bf16, kDecodeSplits, BLOCK_DV, Lv>(grid2, nullptr, gmid.ptr(), go.ptr(),
                                                       glens.ptr(), ob, oh, p.Lv + 1, p.H * p.Lv,
                                                       p.Lv, {.num_warps = 4, .num_stages = 2});
  tilec_test::synchronize();
  expect_close(gmid.get(), mid, abs, 1e-2, "Att_Out"); // poison where a split was empty
  expect_near(go.get(), o, 2 * abs, kBf16Rel, "o");
}

} // namespace

TEST(GpuPorts, VllmDecodeAttentionMha) {
  REQUIRE_GPU();
  const DecodeProblem p{4, 4, 128, 128, 16};
  const int batch = 3, H = 4, L = 128, ob = H * kDecodeSplits * (L + 1), oh = kDecodeSplits * (L + 1);
  for (float cap : {0.0f, 30.0f}) {
    SCOPED_TRACE(::testing::Message() << "logit cap " << cap);
    const tilec::Grid grid{u32(batch), u32(H), u32(kDecodeSplits)};
    decodeOnGpu<128>(
        p,
        [&](auto q, auto k, auto v, auto table, auto lens, auto mid) {
          _fwd_kernel_stage1<bf16, 1, 128, 128, 64, kDecodeSplits, 16, 128, 128>(
              grid, nullptr, q, k, v, 0.088f, table, lens, mid, p.pages_per_seq(), H * L, L,
              H * L, L, H * L, L, ob, oh, L + 1, cap, {.num_warps = 4, .num_stages = 2});
        },
        [&](auto q, auto k, auto v, auto table, auto lens, auto mid) {
          tilec::interpret::launch(
              host::_fwd_kernel_stage1<bf16, 1, 128, 128, 64, kDecodeSplits, 16, 128, 128>, grid,
              q, k, v, 0.088f, table, lens, mid, p.pages_per_seq(), H * L, L, H * L, L, H * L, L,
              ob, oh, L + 1, cap);
        },
        // The MHA kernel's q.k is a bf16 sum (every partial sum rounded to bf16, as in the
        // original) of 128 products, about 4 in size: GPU and interpreter sum in different
        // trees, a few bf16 steps (2^-5) apart, 3e-3 in a score after sm_scale. Outputs move
        // by about that times their spread.
        101, 4e-3);
  }
}

TEST(GpuPorts, VllmDecodeAttentionGrouped) {
  REQUIRE_GPU();
  const DecodeProblem p{32, 8, 128, 128, 16}; // Llama 3 8B's heads
  const int batch = 3, H = 32, H_KV = 8, L = 128;
  const int ob = H * kDecodeSplits * (L + 1), oh = kDecodeSplits * (L + 1);
  const tilec::Grid grid{u32(batch), u32(H / 4), u32(kDecodeSplits)};
  decodeOnGpu<128>(
      p,
      [&](auto q, auto k, auto v, auto table, auto lens, auto mid) {
        _fwd_grouped_kernel_stage1<bf16, 4, 32, 128, 0, 128, 32, 16, kDecodeSplits, 16, 128, 128>(
            grid, nullptr, q, k, v, 0.088f, table, lens, mid, p.pages_per_seq(), H * L, L,
            H_KV * L, L, H_KV * L, L, ob, oh, L + 1, 0.0f, {.num_warps = 4, .num_stages = 2});
      },
      [&](auto q, auto k, auto v, auto table, auto lens, auto mid) {
        tilec::interpret::launch(
            host::_fwd_grouped_kernel_stage1<bf16, 4, 32, 128, 0, 128, 32, 16, kDecodeSplits, 16,
                                             128, 128>,
            grid, q, k, v, 0.088f, table, lens, mid, p.pages_per_seq(), H * L, L, H_KV * L, L,
            H_KV * L, L, ob, oh, L + 1, 0.0f);
      },
      102);
}

TEST(GpuPorts, VllmDecodeAttentionMla) {
  REQUIRE_GPU();
  // One KV head of 576 read as keys (all of it) and values (its first 512: the same buffer
  // with V's stride), as vLLM's MLA backend passes them; pages of 1.
  const DecodeProblem p{16, 1, 576, 512, 1};
  const int batch = 3, H = 16, Lk = 576, Lv = 512;
  const int ob = H * kDecodeSplits * (Lv + 1), oh = kDecodeSplits * (Lv + 1);
  const tilec::Grid grid{u32(batch), 1u, u32(kDecodeSplits)};
  const float scale = 0.0417f;
  decodeOnGpu<512>(
      p,
      [&](auto q, auto k, auto, auto table, auto lens, auto mid) {
        _fwd_grouped_kernel_stage1<bf16, 16, 16, 512, 64, 512, 32, 16, kDecodeSplits, 1, 576, 512>(
            grid, nullptr, q, k, k, scale, table, lens, mid, p.pages_per_seq(), H * Lk, Lk, Lk, Lk,
            Lk, Lk, ob, oh, Lv + 1, 0.0f, {.num_warps = 4, .num_stages = 2});
      },
      [&](auto q, auto k, auto, auto table, auto lens, auto mid) {
        tilec::interpret::launch(
            host::_fwd_grouped_kernel_stage1<bf16, 16, 16, 512, 64, 512, 32, 16, kDecodeSplits,
                                             1, 576, 512>,
            grid, q, k, k, scale, table, lens, mid, p.pages_per_seq(), H * Lk, Lk, Lk, Lk, Lk, Lk,
            ob, oh, Lv + 1, 0.0f);
      },
      103);
}

// ---------------------------------------------------------------------------------------
// flash-linear-attention's fused recurrence: GLA's configuration (bf16 inputs, the key decay,
// initial and final states) at K = V = 128 in blocks of 64 (two programs each way), and every
// decay in float at K = 50, V = 40 with variable-length sequences, walking backwards.

namespace {

template <class TQ, bool ALL, bool REVERSE, bool VARLEN, int H, int K, int V, int BK, int BV>
void flaOnGpu(const std::vector<int64_t> &bounds, unsigned seed) {
  SCOPED_TRACE(::testing::Message() << "K " << K << ", reverse " << REVERSE);
  constexpr int NK = (K + BK - 1) / BK, NV = (V + BV - 1) / BV;
  const int n = int(bounds.size()) - 1, tokens = int(bounds.back());
  const int B = VARLEN ? 1 : n, T = VARLEN ? tokens : tokens / n;
  const size_t tk = size_t(tokens) * H;
  const auto q = as<TQ>(uniform(tk * K, -1, 1, seed)), k = as<TQ>(uniform(tk * K, -1, 1, seed + 1));
  const auto v = as<TQ>(uniform(tk * V, -1, 1, seed + 2));
  const auto g = as<TQ>(uniform(tk, -0.3f, 0, seed + 3)), gamma = as<TQ>(uniform(H, -0.2f, 0, seed + 4));
  const auto gk = as<TQ>(uniform(tk * K, -0.3f, 0, seed + 5));
  const auto gv = as<TQ>(uniform(tk * V, -0.3f, 0, seed + 6));
  const auto dout = as<TQ>(uniform(tk * V, -1, 1, seed + 7));
  const auto h0 = uniform(size_t(n) * H * K * V, -1, 1, seed + 8);
  const auto dht = uniform(h0.size(), -1, 1, seed + 9);
  auto o = poison(NK * tk * V + kPad), ht = poison(h0.size() + kPad);
  Mirror<TQ> gq(q), gk_(k), gv_(v), gg(g), ggamma(gamma), ggk(gk), ggv(gv), gdo(dout);
  Mirror<float> gh0(h0), gdht(dht), go(o), ght(ht);
  Mirror<int64_t> gcu(bounds);
  const tilec::Grid grid{NV, NK, u32(n * H)};
  const int64_t *cu = VARLEN ? bounds.data() : nullptr;
  const float scale = 0.088f;
  auto fwd = host::fused_recurrent_fwd_kernel<TQ, float, float, H, K, V, BK, BV, REVERSE, ALL,
                                              ALL, true, ALL, true, true, VARLEN>;
  tilec::interpret::launch(fwd, grid, q.data(), k.data(), v.data(), g.data(), gamma.data(),
                           gk.data(), gv.data(), o.data(), h0.data(), ht.data(), cu, scale, B, T);
  fused_recurrent_fwd_kernel<TQ, float, float, H, K, V, BK, BV, REVERSE, ALL, ALL, true, ALL,
                             true, true, VARLEN>(
      grid, nullptr, gq.ptr(), gk_.ptr(), gv_.ptr(), gg.ptr(), ggamma.ptr(), ggk.ptr(), ggv.ptr(),
      go.ptr(), gh0.ptr(), ght.ptr(), VARLEN ? gcu.ptr() : nullptr, scale, B, T,
      {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(go.get(), o, 1e-4, 1e-4, "o");
  expect_close(ght.get(), ht, 1e-4, 1e-4, "ht");

  std::vector<float> o_sum(tk * V, 0.0f);
  for (int p = 0; p < NK; ++p)
    for (size_t i = 0; i < o_sum.size(); ++i)
      o_sum[i] += o[p * tk * V + i];
  auto dq = poison(NV * tk * K + kPad), dk = poison(NV * tk * K + kPad);
  auto dv = poison(NK * tk * V + kPad), dg = poison(NK * NV * tk + kPad);
  auto dgk = poison(NV * tk * K + kPad), dgv = poison(NK * tk * V + kPad);
  auto dh0 = poison(h0.size() + kPad);
  Mirror<float> gosum(o_sum), gdq(dq), gdk(dk), gdv(dv), gdg(dg), gdgk(dgk), gdgv(dgv), gdh0(dh0);
  auto bwd = host::fused_recurrent_bwd_kernel<TQ, float, float, H, K, V, BK, BV, REVERSE, ALL,
                                              ALL, true, ALL, true, true, true, VARLEN>;
  tilec::interpret::launch(bwd, grid, q.data(), k.data(), v.data(), g.data(), gamma.data(),
                           gk.data(), gv.data(), o_sum.data(), h0.data(), dout.data(), dq.data(),
                           dk.data(), dv.data(), dg.data(), dgk.data(), dgv.data(), dht.data(),
                           dh0.data(), cu, scale, B, T);
  fused_recurrent_bwd_kernel<TQ, float, float, H, K, V, BK, BV, REVERSE, ALL, ALL, true, ALL,
                             true, true, true, VARLEN>(
      grid, nullptr, gq.ptr(), gk_.ptr(), gv_.ptr(), gg.ptr(), ggamma.ptr(), ggk.ptr(),
      ggv.ptr(), gosum.ptr(), gh0.ptr(), gdo.ptr(), gdq.ptr(), gdk.ptr(), gdv.ptr(), gdg.ptr(),
      gdgk.ptr(), gdgv.ptr(), gdht.ptr(), gdh0.ptr(), VARLEN ? gcu.ptr() : nullptr, scale, B, T,
      {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gdq.get(), dq, 1e-4, 1e-4, "dq");
  expect_close(gdk.get(), dk, 1e-4, 1e-4, "dk");
  expect_close(gdv.get(), dv, 1e-4, 1e-4, "dv");
  expect_close(gdgk.get(), dgk, 1e-3, 1e-4, "dgk");
  expect_close(gdh0.get(), dh0, 1e-4, 1e-4, "dh0");
  if (ALL) {
    expect_close(gdg.get(), dg, 1e-3, 1e-4, "dg");
    expect_close(gdgv.get(), dgv, 1e-3, 1e-4, "dgv");
  }
}

} // namespace

TEST(GpuPorts, FlaFusedRecurrent) {
  REQUIRE_GPU();
  const uint64_t steps_before = tilec::runtime_stats().occupancy_steps;
  flaOnGpu<bf16, false, false, false, 16, 128, 128, 64, 64>({0, 37, 74}, 111);
  // The backward at this specialization (bench_ports' row) wants about 148 registers a thread,
  // three blocks of 128 per SM; the runtime's occupancy step compiles it again for four
  // (runtime/src/occupancy_step.h), and the checks above ran that build.
  if (std::getenv("TILEC_OCCUPANCY_STEP") == nullptr)
    EXPECT_GE(tilec::runtime_stats().occupancy_steps - steps_before, 1u)
        << "the occupancy step did not fire for FLA's backward (TILEC_OCCUPANCY_STEP=print "
           "says why)";
  flaOnGpu<float, true, true, true, 3, 50, 40, 32, 32>({0, 3, 11, 12}, 121);
}

// ---------------------------------------------------------------------------------------
// Mamba-2's chunked products in bf16: the causal forward with sequence boundaries and the
// plain one at two configs, the backward with a residual; 2 x 300 positions in chunks of
// 128, 2 groups, K = 40.

TEST(GpuPorts, MambaSsdChunkProducts) {
  REQUIRE_GPU();
  constexpr int batch = 2, seqlen = 300, chunk = 128, groups = 2, K = 40, chunks = 3;
  const size_t seq_elems = size_t(batch) * seqlen * groups * K;
  const size_t chunk_elems = size_t(batch) * chunks * groups * chunk * chunk;
  const auto a = as<bf16>(uniform(seq_elems, -1, 1, 131));
  const auto b = as<bf16>(uniform(seq_elems, -1, 1, 132));
  const auto res = as<bf16>(uniform(seq_elems, -1, 1, 133));
  const auto dout = as<bf16>(uniform(chunk_elems, -1, 1, 134));
  std::vector<int32_t> seq_idx(size_t(batch) * seqlen);
  for (size_t i = 0; i < seq_idx.size(); ++i)
    seq_idx[i] = int(i % seqlen) < 120 ? 0 : 1;
  Mirror<bf16> ga(a), gb(b), gres(res), gdout(dout);
  Mirror<int32_t> gseq(seq_idx);
  const int sa[4] = {seqlen * groups * K, groups * K, K, 1};
  const int so[5] = {chunks * groups * chunk * chunk, groups * chunk * chunk, chunk * chunk, chunk, 1};
  auto forward = [&](auto host_kernel, auto gpu_kernel, int blocks, int warps, int stages,
                     const char *what) {
    auto out = poison<bf16>(chunk_elems + kPad);
    Mirror<bf16> gout(out);
    const tilec::Grid grid{u32(blocks), u32(batch), u32(chunks * groups)};
    tilec::interpret::launch(host_kernel, grid, a.data(), b.data(), out.data(), seq_idx.data(),
                             seqlen, chunk, K, groups, sa[0], sa[1], sa[2], sa[3], sa[0], sa[1],
                             sa[2], sa[3], so[0], so[1], so[2], so[3], so[4], seqlen, 1);
    gpu_kernel(grid, nullptr, ga.ptr(), gb.ptr(), gout.ptr(), gseq.ptr(), seqlen, chunk, K,
               groups, sa[0], sa[1], sa[2], sa[3], sa[0], sa[1], sa[2], sa[3], so[0], so[1],
               so[2], so[3], so[4], seqlen, 1,
               tilec::LaunchOptions{.num_warps = warps, .num_stages = stages});
    tilec_test::synchronize();
    expect_near(gout.get(), out, 1e-2, kBf16Rel, what); // poison where causal skipped a block
  };
  forward(host::_bmm_chunk_fwd_kernel<bf16, bf16, bf16, true, true, 64, 64, 32>,
          _bmm_chunk_fwd_kernel<bf16, bf16, bf16, true, true, 64, 64, 32>, 4, 2, 4,
          "causal forward");
  forward(host::_bmm_chunk_fwd_kernel<bf16, bf16, bf16, false, true, 128, 128, 32>,
          _bmm_chunk_fwd_kernel<bf16, bf16, bf16, false, true, 128, 128, 32>, 1, 4, 4,
          "forward");

  auto db = poison<bf16>(seq_elems + kPad);
  Mirror<bf16> gdb(db);
  const tilec::Grid grid{2u, u32(batch), u32(chunks * groups)};
  tilec::interpret::launch(host::_bmm_chunk_bwd_kernel<bf16, bf16, bf16, true, 64, 64, 32>, grid,
                           a.data(), dout.data(), db.data(), res.data(), seqlen, chunk, K, groups,
                           sa[0], sa[1], sa[2], sa[3], so[0], so[1], so[2], so[3], so[4], sa[0],
                           sa[1], sa[2], sa[3], sa[0], sa[1], sa[2], sa[3]);
  _bmm_chunk_bwd_kernel<bf16, bf16, bf16, true, 64, 64, 32>(
      grid, nullptr, ga.ptr(), gdout.ptr(), gdb.ptr(), gres.ptr(), seqlen, chunk, K, groups, sa[0],
      sa[1], sa[2], sa[3], so[0], so[1], so[2], so[3], so[4], sa[0], sa[1], sa[2], sa[3], sa[0],
      sa[1], sa[2], sa[3], {.num_warps = 2, .num_stages = 4});
  tilec_test::synchronize();
  expect_near(gdb.get(), db, 2e-2, kBf16Rel, "backward");
}

// flash-linear-attention's cumulative sums in bf16 (float out): a chunk-local vector sum over
// packed variable-length sequences, a reversed whole-sequence scalar sum in the head-first
// layout; the same inputs in the interpreter.
TEST(GpuPorts, FlaCumulativeSums) {
  REQUIRE_GPU();
  constexpr int H = 3, S = 40, BT = 64, BS = 32;
  const std::vector<int64_t> cu = {0, 50, 150, 153}, chunks = {0, 0, 1, 0, 1, 1, 2, 0};
  const int T = 153;
  const auto s = as<bf16>(uniform(size_t(T) * H * S, -1, 1, 141));
  auto o = poison(s.size() + kPad);
  Mirror<bf16> gs(s);
  Mirror<float> go(o);
  Mirror<int64_t> gcu(cu), gchunks(chunks);
  const tilec::Grid grid{(S + BS - 1) / BS, 4u, u32(H)};
  tilec::interpret::launch(
      host::chunk_local_cumsum_vector_kernel<bf16, float, 2, H, S, BT, BS, false, false, true,
                                             false>,
      grid, s.data(), o.data(), 1.0f, cu.data(), chunks.data(), T);
  chunk_local_cumsum_vector_kernel<bf16, float, 2, H, S, BT, BS, false, false, true, false>(
      grid, nullptr, gs.ptr(), go.ptr(), 1.0f, gcu.ptr(), gchunks.ptr(), T, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(go.get(), o, 1e-5, 1e-5, "local vector");

  const int B = 2, L = 150;
  const auto s1 = as<bf16>(uniform(size_t(B) * H * L, -1, 1, 142));
  auto o1 = poison(s1.size() + kPad);
  Mirror<bf16> gs1(s1);
  Mirror<float> go1(o1);
  const tilec::Grid grid1{u32(B * H)};
  tilec::interpret::launch(
      host::chunk_global_cumsum_scalar_kernel<bf16, float, 2, H, BT, true, false, false, true>,
      grid1, s1.data(), o1.data(), 1.0f, nullptr, L);
  chunk_global_cumsum_scalar_kernel<bf16, float, 2, H, BT, true, false, false, true>(
      grid1, nullptr, gs1.ptr(), go1.ptr(), 1.0f, nullptr, L, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(go1.get(), o1, 1e-5, 1e-5, "global scalar");
}

// vLLM's merge of two partial attention results in bf16, with an empty prefix (+inf) and an
// empty suffix (-inf) among the lse values.
TEST(GpuPorts, VllmMergeAttentionStates) {
  REQUIRE_GPU();
  constexpr int tokens = 37, heads = 5, D = 80;
  const auto p_out = as<bf16>(uniform(size_t(tokens) * heads * D, -1, 1, 151));
  const auto s_out = as<bf16>(uniform(p_out.size(), -1, 1, 152));
  auto p_lse = uniform(size_t(heads) * tokens, -3, 3, 153), s_lse = uniform(p_lse.size(), -3, 3, 154);
  p_lse[3] = INFINITY;
  s_lse[5] = -INFINITY;
  auto out = poison<bf16>(p_out.size() + kPad);
  auto out_lse = poison(p_lse.size() + kPad);
  Mirror<bf16> gp(p_out), gs(s_out), gout(out);
  Mirror<float> gpl(p_lse), gsl(s_lse), gol(out_lse);
  const tilec::Grid grid{u32(tokens), u32(heads)};
  tilec::interpret::launch(host::merge_attn_states_kernel<bf16, D, 128, true>, grid, out.data(),
                           out_lse.data(), p_out.data(), p_lse.data(), s_out.data(),
                           s_lse.data());
  merge_attn_states_kernel<bf16, D, 128, true>(grid, nullptr, gout.ptr(), gol.ptr(), gp.ptr(),
                                               gpl.ptr(), gs.ptr(), gsl.ptr(), {.num_warps = 4});
  tilec_test::synchronize();
  expect_near(gout.get(), out, 1e-6, kBf16Rel, "out");
  expect_close(gol.get(), out_lse, 1e-6, 1e-6, "lse");
}

// Liger-Kernel's Qwen2-VL M-RoPE in bf16, in place, forward then backward, at Qwen2-VL 7B's
// heads (28 query heads, 4 key heads of 128) over 37 tokens.
TEST(GpuPorts, LigerQwen2VlMrope) {
  REQUIRE_GPU();
  constexpr int tokens = 37, n_qh = 28, n_kh = 4, hd = 128;
  auto q = as<bf16>(uniform(size_t(tokens) * n_qh * hd, -1, 1, 161));
  auto k = as<bf16>(uniform(size_t(tokens) * n_kh * hd, -1, 1, 162));
  const auto cos = as<bf16>(uniform(size_t(3) * tokens * hd, -1, 1, 163));
  const auto sin = as<bf16>(uniform(cos.size(), -1, 1, 164));
  Mirror<bf16> gq(q), gk(k), gcos(cos), gsin(sin);
  const tilec::Grid grid{u32(tokens)};
  auto both = [&](auto host_kernel, auto gpu_kernel) {
    tilec::interpret::launch(host_kernel, grid, q.data(), k.data(), cos.data(), sin.data(),
                             tokens);
    gpu_kernel(grid, nullptr, gq.ptr(), gk.ptr(), gcos.ptr(), gsin.ptr(), tokens,
               tilec::LaunchOptions{.num_warps = 4});
    tilec_test::synchronize();
    // `a * c - b * s` in bf16: the GPU contracts one product into an fma (as Triton's fp
    // fusion does), one bf16 rounding of a product (|product| < 1: 2^-9) fewer than the
    // interpreter, which cancellation leaves in the result; the backward adds its own.
    expect_near(gq.get(), q, 1.0 / 128, kBf16Rel, "q");
    expect_near(gk.get(), k, 1.0 / 128, kBf16Rel, "k");
  };
  both(host::_triton_qwen2vl_mrope<bf16, bf16, 1, n_qh, n_kh, hd, 32, 4, 128, 16, 24, 32, false>,
       _triton_qwen2vl_mrope<bf16, bf16, 1, n_qh, n_kh, hd, 32, 4, 128, 16, 24, 32, false>);
  both(host::_triton_qwen2vl_mrope<bf16, bf16, 1, n_qh, n_kh, hd, 32, 4, 128, 16, 24, 32, true>,
       _triton_qwen2vl_mrope<bf16, bf16, 1, n_qh, n_kh, hd, 32, 4, 128, 16, 24, 32, true>);
}
