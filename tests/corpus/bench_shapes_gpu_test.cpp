// The corpus kernels at the specializations bench_corpus times (bf16, rows of 4096 to 14336
// elements, vocabularies of 32000 and 128256, 8 to 32 warps; group norm in fp32), on a few
// rows, on the GPU against the interpreter running the same specialization on the same
// inputs. Outputs are poisoned on both sides; bf16 results may differ by a rounding of the
// differently ordered float sums. Skips with "no GPU: <why>" without one.
#include "corpus_support.h"
#include "flaggems_argmax.tilec.h"
#include "gpu_test_support.h"
#include "liger_cross_entropy.tilec.h"
#include "liger_geglu.tilec.h"
#include "liger_group_norm.tilec.h"
#include "liger_kl_div.tilec.h"
#include "liger_layer_norm.tilec.h"
#include "liger_rms_norm.tilec.h"
#include "liger_rope.tilec.h"
#include "liger_swiglu.tilec.h"

#include <tilec/interpret.h>

namespace host { // the kernels as the interpreter runs them
#include "kernels/flaggems_argmax.cpp"
#include "kernels/liger_cross_entropy.cpp"
#include "kernels/liger_geglu.cpp"
#include "kernels/liger_group_norm.cpp"
#include "kernels/liger_kl_div.cpp"
#include "kernels/liger_layer_norm.cpp"
#include "kernels/liger_rms_norm.cpp"
#include "kernels/liger_rope.cpp"
#include "kernels/liger_swiglu.cpp"
} // namespace host

namespace {

using bf16 = tl::bfloat16;
using tilec_test::Mirror;

std::vector<bf16> bf16_uniform(size_t n, float lo, float hi, unsigned seed) {
  std::vector<float> f = corpus::uniform(n, lo, hi, seed);
  return std::vector<bf16>(f.begin(), f.end());
}

std::vector<bf16> bf16_poisoned(size_t n) { return std::vector<bf16>(n, bf16(NAN)); }

std::vector<float> widen(const std::vector<bf16> &v) { return {v.begin(), v.end()}; }

/// GPU and interpreter bf16 results within two bf16 roundings (and `abs`).
void expect_near_bf16(const std::vector<bf16> &gpu, const std::vector<bf16> &want, double abs,
                      const std::string &what) {
  tilec_test::expect_close(widen(gpu), widen(want), abs, 2.0 / 128, what);
}

} // namespace

TEST(GpuCorpusBenchShapes, Norms) {
  REQUIRE_GPU();
  for (int cols : {4096, 8192}) {
    SCOPED_TRACE(cols);
    const int rows = 3, warps = cols == 4096 ? 8 : 16, rpp = 2, programs = 2;
    auto x = bf16_uniform(size_t(rows) * cols, -2, 2, 1), w = bf16_uniform(cols, -1, 1, 2);
    auto dy = bf16_uniform(x.size(), -1, 1, 3), y = bf16_poisoned(x.size()), dx = y;
    auto rstd = corpus::poisoned(rows), dw = corpus::poisoned(size_t(programs) * cols);
    Mirror<bf16> gx(x), gw(w), gdy(dy), gy(y), gdx(dx);
    Mirror<float> grstd(rstd), gdw(dw);
    if (cols == 4096) {
      tilec::interpret::launch(host::rms_norm_forward_kernel<bf16, 4096>, tilec::Grid{rows},
                               y.data(), cols, x.data(), cols, w.data(), rstd.data(), 1, cols,
                               1e-6f, 0.0f);
      tilec::interpret::launch(host::rms_norm_backward_kernel<bf16, 4096>, tilec::Grid{programs},
                               dy.data(), cols, dx.data(), cols, x.data(), cols, w.data(),
                               rstd.data(), 1, dw.data(), cols, rows, cols, 0.0f, rpp);
      rms_norm_forward_kernel<bf16, 4096>(tilec::Grid{rows}, nullptr, gy.ptr(), cols, gx.ptr(),
                                          cols, gw.ptr(), grstd.ptr(), 1, cols, 1e-6f, 0.0f,
                                          {.num_warps = warps});
      rms_norm_backward_kernel<bf16, 4096>(tilec::Grid{programs}, nullptr, gdy.ptr(), cols,
                                           gdx.ptr(), cols, gx.ptr(), cols, gw.ptr(),
                                           grstd.ptr(), 1, gdw.ptr(), cols, rows, cols, 0.0f, rpp,
                                           {.num_warps = warps});
    } else {
      tilec::interpret::launch(host::rms_norm_forward_kernel<bf16, 8192>, tilec::Grid{rows},
                               y.data(), cols, x.data(), cols, w.data(), rstd.data(), 1, cols,
                               1e-6f, 0.0f);
      tilec::interpret::launch(host::rms_norm_backward_kernel<bf16, 8192>, tilec::Grid{programs},
                               dy.data(), cols, dx.data(), cols, x.data(), cols, w.data(),
                               rstd.data(), 1, dw.data(), cols, rows, cols, 0.0f, rpp);
      rms_norm_forward_kernel<bf16, 8192>(tilec::Grid{rows}, nullptr, gy.ptr(), cols, gx.ptr(),
                                          cols, gw.ptr(), grstd.ptr(), 1, cols, 1e-6f, 0.0f,
                                          {.num_warps = warps});
      rms_norm_backward_kernel<bf16, 8192>(tilec::Grid{programs}, nullptr, gdy.ptr(), cols,
                                           gdx.ptr(), cols, gx.ptr(), cols, gw.ptr(),
                                           grstd.ptr(), 1, gdw.ptr(), cols, rows, cols, 0.0f, rpp,
                                           {.num_warps = warps});
    }
    tilec_test::synchronize();
    expect_near_bf16(gy.get(), y, 1e-3, "rms y");
    tilec_test::expect_close(grstd.get(), rstd, 0, 1e-5, "rms rstd");
    expect_near_bf16(gdx.get(), dx, 1e-3, "rms dx");
    tilec_test::expect_close(gdw.get(), dw, 1e-2, 1e-2, "rms dw");
  }
  // layer norm at 4096 columns, forward and backward with 32 rows per program (two programs,
  // the second one short)
  const int cols = 4096, rows = 40, programs = 2;
  auto x = bf16_uniform(size_t(rows) * cols, -2, 3, 4), w = bf16_uniform(cols, -1, 1, 5);
  auto b = bf16_uniform(cols, -1, 1, 6), dy = bf16_uniform(x.size(), -1, 1, 7);
  auto y = bf16_poisoned(x.size()), dx = y, mean = bf16_poisoned(rows), rstd = mean;
  auto dw = corpus::poisoned(size_t(programs) * cols), db = dw;
  // the backward pass reads the same statistics on both sides, not each side's forward ones
  auto mean_in = bf16_uniform(rows, 0, 1, 21), rstd_in = bf16_uniform(rows, 0.5f, 1, 22);
  Mirror<bf16> gx(x), gw(w), gb(b), gdy(dy), gy(y), gdx(dx), gmean(mean), grstd(rstd);
  Mirror<bf16> gmean_in(mean_in), grstd_in(rstd_in);
  Mirror<float> gdw(dw), gdb(db);
  tilec::interpret::launch(host::layer_norm_forward_kernel<bf16, 4096>, tilec::Grid{rows},
                           y.data(), cols, x.data(), cols, w.data(), b.data(), mean.data(), 1,
                           rstd.data(), 1, cols, 1e-6f);
  tilec::interpret::launch(host::layer_norm_backward_kernel<bf16, 32, 4096>,
                           tilec::Grid{programs}, x.data(), cols, w.data(), mean_in.data(), 1,
                           rstd_in.data(), 1, dx.data(), cols, dw.data(), cols, db.data(), cols,
                           dy.data(), cols, rows, cols);
  layer_norm_forward_kernel<bf16, 4096>(tilec::Grid{rows}, nullptr, gy.ptr(), cols, gx.ptr(),
                                        cols, gw.ptr(), gb.ptr(), gmean.ptr(), 1, grstd.ptr(), 1,
                                        cols, 1e-6f, {.num_warps = 8});
  layer_norm_backward_kernel<bf16, 32, 4096>(
      tilec::Grid{programs}, nullptr, gx.ptr(), cols, gw.ptr(), gmean_in.ptr(), 1,
      grstd_in.ptr(), 1, gdx.ptr(), cols, gdw.ptr(), cols, gdb.ptr(), cols, gdy.ptr(), cols, rows,
      cols,
      {.num_warps = 8});
  tilec_test::synchronize();
  expect_near_bf16(gy.get(), y, 1e-3, "ln y");
  expect_near_bf16(gmean.get(), mean, 1e-3, "ln mean");
  expect_near_bf16(grstd.get(), rstd, 1e-3, "ln rstd");
  expect_near_bf16(gdx.get(), dx, 1e-3, "ln dx");
  tilec_test::expect_close(gdw.get(), dw, 1e-2, 1e-2, "ln dw");
  tilec_test::expect_close(gdb.get(), db, 1e-2, 1e-2, "ln db");
}

TEST(GpuCorpusBenchShapes, GluAndRope) {
  REQUIRE_GPU();
  constexpr int cols = 14336, rows = 2;
  auto a = bf16_uniform(size_t(rows) * cols, -4, 4, 8), b = bf16_uniform(a.size(), -1, 1, 9);
  auto dc = bf16_uniform(a.size(), -1, 1, 10);
  for (bool gelu : {false, true}) {
    SCOPED_TRACE(gelu ? "geglu" : "swiglu");
    auto c = bf16_poisoned(a.size()), da = a, db = b;
    Mirror<bf16> ga(a), gb(b), gdc(dc), gc(c), gda(da), gdb(db);
    if (gelu) {
      tilec::interpret::launch(host::geglu_tanh_forward_kernel<bf16, cols, 16384>,
                               tilec::Grid{rows}, a.data(), b.data(), c.data(), cols);
      tilec::interpret::launch(host::geglu_tanh_backward_kernel<bf16, cols, 16384>,
                               tilec::Grid{rows}, dc.data(), da.data(), db.data(), cols);
      geglu_tanh_forward_kernel<bf16, cols, 16384>(tilec::Grid{rows}, nullptr, ga.ptr(),
                                                   gb.ptr(), gc.ptr(), cols, {.num_warps = 16});
      geglu_tanh_backward_kernel<bf16, cols, 16384>(tilec::Grid{rows}, nullptr, gdc.ptr(),
                                                    gda.ptr(), gdb.ptr(), cols,
                                                    {.num_warps = 16});
    } else {
      tilec::interpret::launch(host::swiglu_forward_kernel<bf16, cols, 16384>,
                               tilec::Grid{rows}, a.data(), b.data(), c.data(), cols, 1.0f);
      tilec::interpret::launch(host::swiglu_backward_kernel<bf16, cols, 16384>,
                               tilec::Grid{rows}, dc.data(), da.data(), db.data(), cols, 1.0f);
      swiglu_forward_kernel<bf16, cols, 16384>(tilec::Grid{rows}, nullptr, ga.ptr(), gb.ptr(),
                                               gc.ptr(), cols, 1.0f, {.num_warps = 16});
      swiglu_backward_kernel<bf16, cols, 16384>(tilec::Grid{rows}, nullptr, gdc.ptr(), gda.ptr(),
                                                gdb.ptr(), cols, 1.0f, {.num_warps = 16});
    }
    tilec_test::synchronize();
    expect_near_bf16(gc.get(), c, 1e-3, "c");
    expect_near_bf16(gda.get(), da, 1e-3, "da");
    expect_near_bf16(gdb.get(), db, 1e-3, "db");
  }
  // RoPE at Llama-3 8B's heads, two tokens of one sequence
  constexpr int sl = 2, n_qh = 32, n_kh = 8, hd = 128;
  auto q = bf16_uniform(size_t(4) * sl * n_qh * hd, -1, 1, 11);
  auto k = bf16_uniform(size_t(4) * sl * n_kh * hd, -1, 1, 12);
  auto cos = bf16_uniform(sl * hd, -1, 1, 13), sin = bf16_uniform(sl * hd, -1, 1, 14);
  Mirror<bf16> gq(q), gk(k), gcos(cos), gsin(sin);
  tilec::interpret::launch(host::triton_rope<bf16, 4, 1, n_qh, n_kh, hd, 32, 8, 128, 32, false>,
                           tilec::Grid{4 * sl}, q.data(), n_qh * hd, k.data(), n_kh * hd,
                           cos.data(), hd, sin.data(), hd, sl);
  triton_rope<bf16, 4, 1, n_qh, n_kh, hd, 32, 8, 128, 32, false>(
      tilec::Grid{4 * sl}, nullptr, gq.ptr(), n_qh * hd, gk.ptr(), n_kh * hd, gcos.ptr(), hd,
      gsin.ptr(), hd, sl, {.num_warps = 4});
  tilec::interpret::launch(host::triton_rope<bf16, 4, 1, n_qh, n_kh, hd, 32, 8, 128, 32, true>,
                           tilec::Grid{4 * sl}, q.data(), n_qh * hd, k.data(), n_kh * hd,
                           cos.data(), hd, sin.data(), hd, sl);
  triton_rope<bf16, 4, 1, n_qh, n_kh, hd, 32, 8, 128, 32, true>(
      tilec::Grid{4 * sl}, nullptr, gq.ptr(), n_qh * hd, gk.ptr(), n_kh * hd, gcos.ptr(), hd,
      gsin.ptr(), hd, sl, {.num_warps = 4});
  tilec_test::synchronize();
  // Absolute error: two in-place bf16 rotations pass through intermediates up to 2 in
  // magnitude, each rounded to bf16 (2^-8 relative); the GPU contracts q*cos - q2*sin into one
  // FMA where the interpreter rounds the product first, so a result that cancels to near 0 can
  // differ by an intermediate's rounding (measured 2^-9 on the H200).
  expect_near_bf16(gq.get(), q, 1.0 / 128, "rope q");
  expect_near_bf16(gk.get(), k, 1.0 / 128, "rope k");
}

TEST(GpuCorpusBenchShapes, Losses) {
  REQUIRE_GPU();
  for (int vocab : {32000, 128256}) {
    SCOPED_TRACE(vocab);
    const int rows = 2;
    auto x = bf16_uniform(size_t(rows) * vocab, -4, 4, 15);
    std::vector<int64_t> y = {7, vocab - 1};
    auto loss = bf16_poisoned(rows);
    Mirror<bf16> gx(x), gloss(loss);
    Mirror<int64_t> gy(y);
    tilec::interpret::launch(host::liger_cross_entropy_kernel<bf16, 1, 32768>,
                             tilec::Grid{rows}, x.data(), int64_t(vocab), y.data(), 1,
                             loss.data(), 1, vocab, rows, -100, 0.0f, 0.0f);
    liger_cross_entropy_kernel<bf16, 1, 32768>(tilec::Grid{rows}, nullptr, gx.ptr(),
                                               int64_t(vocab), gy.ptr(), 1, gloss.ptr(), 1, vocab,
                                               rows, -100, 0.0f, 0.0f, {.num_warps = 32});
    tilec_test::synchronize();
    expect_near_bf16(gx.get(), x, 1e-9, "ce dx");
    expect_near_bf16(gloss.get(), loss, 1e-3, "ce loss");

    // log(gt) < y everywhere: terms of one sign, so the bf16 row sums (rounded at every step,
    // in different orders) agree to a few roundings relative to the total
    auto lp = bf16_uniform(size_t(rows) * vocab, -12, -8, 16);
    auto gt = bf16_uniform(lp.size(), 0, 1e-6f, 17), grads = bf16_poisoned(lp.size());
    auto kl = corpus::poisoned(rows);
    Mirror<bf16> glp(lp), ggt(gt), ggrads(grads);
    Mirror<float> gkl(kl);
    tilec::interpret::launch(host::kldiv_kernel_forward<bf16, 16384, false, 3>, tilec::Grid{rows},
                             lp.data(), vocab, gt.data(), vocab, kl.data(), 1, vocab, 1e-10f);
    tilec::interpret::launch(host::kldiv_kernel_backward<bf16, 16384, false>, tilec::Grid{rows},
                             gt.data(), vocab, grads.data(), vocab, vocab);
    kldiv_kernel_forward<bf16, 16384, false, 3>(tilec::Grid{rows}, nullptr, glp.ptr(), vocab,
                                                ggt.ptr(), vocab, gkl.ptr(), 1, vocab, 1e-10f,
                                                {.num_warps = 16});
    kldiv_kernel_backward<bf16, 16384, false>(tilec::Grid{rows}, nullptr, ggt.ptr(), vocab,
                                              ggrads.ptr(), vocab, vocab, {.num_warps = 16});
    tilec_test::synchronize();
    tilec_test::expect_close(gkl.get(), kl, 0, 5e-2, "kl loss");
    expect_near_bf16(ggrads.get(), grads, 0, "kl grads");

    // argmax over the vocabulary, 8 rows per program (the last one partly outside)
    const int M = 11;
    auto logits = bf16_uniform(size_t(M) * vocab, -4, 4, 18);
    std::vector<int64_t> want(M, -7);
    Mirror<bf16> glogits(logits);
    Mirror<int64_t> gidx(want);
    tilec::interpret::launch(host::argmax_kernel<bf16, 8, 4096>, tilec::Grid{2, 1},
                             logits.data(), want.data(), M, vocab, 1);
    argmax_kernel<bf16, 8, 4096>(tilec::Grid{2, 1}, nullptr, glogits.ptr(), gidx.ptr(), M, vocab,
                                 1, {.num_warps = 4});
    tilec_test::synchronize();
    EXPECT_EQ(gidx.get(), want);
  }
}

TEST(GpuCorpusBenchShapes, GroupNorm) {
  REQUIRE_GPU();
  // two of the benchmark's 32 x 32 (batch, group) programs: hidden size 8 x 1024
  constexpr int batch = 1, groups = 2, cpg = 8, hidden = cpg * 1024;
  auto x = corpus::uniform(size_t(batch) * groups * hidden, -1, 1, 18);
  auto w = corpus::uniform(groups * cpg, -1, 1, 19), b = corpus::uniform(groups * cpg, -1, 1, 20);
  auto y = corpus::poisoned(x.size()), mean = corpus::poisoned(batch * groups), rstd = mean;
  Mirror<float> gx(x), gw(w), gb(b), gy(y), gmean(mean), grstd(rstd);
  tilec::interpret::launch(host::group_norm_forward_kernel<float, hidden>,
                           tilec::Grid{batch, groups}, y.data(), groups * hidden, hidden,
                           x.data(), groups * hidden, hidden, mean.data(), groups, 1,
                           rstd.data(), groups, 1, w.data(), b.data(), hidden, cpg, 1e-6f);
  group_norm_forward_kernel<float, hidden>(tilec::Grid{batch, groups}, nullptr, gy.ptr(),
                                           groups * hidden, hidden, gx.ptr(), groups * hidden,
                                           hidden, gmean.ptr(), groups, 1, grstd.ptr(), groups,
                                           1, gw.ptr(), gb.ptr(), hidden, cpg, 1e-6f,
                                           {.num_warps = 4});
  tilec_test::synchronize();
  tilec_test::expect_close(gy.get(), y, 1e-4, 1e-4, "y");
  tilec_test::expect_close(gmean.get(), mean, 1e-6, 1e-4, "mean");
  tilec_test::expect_close(grstd.get(), rstd, 0, 1e-4, "rstd");
}
