// The corpus kernels (kernels/*.cpp) on the GPU against the interpreter running the same
// kernels on the same inputs, at sizes that are not multiples of the block and with outputs
// poisoned on both sides (an element one side writes and the other does not differs). The
// interpreter's results are checked against double-precision references in the
// *_interpreter_test.cpp files. Skips with "no GPU: <why>" without one.
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
#include "user_small.tilec.h"
#include "vllm_fused_moe.tilec.h"
#include "moe_routing.h"

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
#include "kernels/user_small.cpp"
#include "kernels/vllm_fused_moe.cpp"
} // namespace host

using corpus::poisoned;
using corpus::uniform;
using tilec_test::expect_close;
using tilec_test::Mirror;

TEST(GpuCorpus, RmsNorm) {
  REQUIRE_GPU();
  const int rows = 37, n = 1000, stride = 1003, rpp = 8, programs = 5;
  auto x = uniform(size_t(rows) * stride, -2, 2, 1), w = uniform(n, -1, 1, 2);
  auto dy = uniform(x.size(), -1, 1, 3);
  auto y = poisoned(x.size()), rstd = poisoned(rows), dx = poisoned(x.size());
  auto dw = poisoned(size_t(programs) * n);
  Mirror<float> gx(x), gw(w), gdy(dy), gy(y), grstd(rstd), gdx(dx), gdw(dw);
  tilec::interpret::launch(host::rms_norm_forward_kernel<float, 1024>, tilec::Grid{rows},
                           y.data(), stride, x.data(), stride, w.data(), rstd.data(), 1, n,
                           1e-6f, 0.5f);
  tilec::interpret::launch(host::rms_norm_backward_kernel<float, 1024>, tilec::Grid{programs},
                           dy.data(), stride, dx.data(), stride, x.data(), stride, w.data(),
                           rstd.data(), 1, dw.data(), n, rows, n, 0.5f, rpp);
  rms_norm_forward_kernel<float, 1024>(tilec::Grid{rows}, nullptr, gy.ptr(), stride, gx.ptr(),
                                       stride, gw.ptr(), grstd.ptr(), 1, n, 1e-6f, 0.5f,
                                       {.num_warps = 4});
  rms_norm_backward_kernel<float, 1024>(tilec::Grid{programs}, nullptr, gdy.ptr(), stride,
                                        gdx.ptr(), stride, gx.ptr(), stride, gw.ptr(),
                                        grstd.ptr(), 1, gdw.ptr(), n, rows, n, 0.5f, rpp,
                                        {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gy.get(), y, 1e-5, 1e-5, "y");
  expect_close(grstd.get(), rstd, 0, 1e-5, "rstd");
  expect_close(gdx.get(), dx, 1e-5, 1e-4, "dx");
  expect_close(gdw.get(), dw, 1e-4, 1e-4, "dw");
}

TEST(GpuCorpus, LayerNorm) {
  REQUIRE_GPU();
  const int rows = 29, n = 777, stride = 782, programs = 8;
  auto x = uniform(size_t(rows) * stride, -3, 5, 4), w = uniform(n, -1, 1, 5);
  auto b = uniform(n, -1, 1, 6), dy = uniform(x.size(), -1, 1, 7);
  auto y = poisoned(x.size()), mean = poisoned(rows), rstd = poisoned(rows);
  auto dx = poisoned(x.size()), dw = poisoned(size_t(programs) * n), db = dw;
  Mirror<float> gx(x), gw(w), gb(b), gdy(dy), gy(y), gmean(mean), grstd(rstd), gdx(dx);
  Mirror<float> gdw(dw), gdb(db);
  tilec::interpret::launch(host::layer_norm_forward_kernel<float, 1024>, tilec::Grid{rows},
                           y.data(), stride, x.data(), stride, w.data(), b.data(), mean.data(),
                           1, rstd.data(), 1, n, 1e-5f);
  tilec::interpret::launch(host::layer_norm_backward_kernel<float, 4, 1024>,
                           tilec::Grid{programs}, x.data(), stride, w.data(), mean.data(), 1,
                           rstd.data(), 1, dx.data(), stride, dw.data(), n, db.data(), n,
                           dy.data(), stride, rows, n);
  layer_norm_forward_kernel<float, 1024>(tilec::Grid{rows}, nullptr, gy.ptr(), stride, gx.ptr(),
                                         stride, gw.ptr(), gb.ptr(), gmean.ptr(), 1, grstd.ptr(),
                                         1, n, 1e-5f, {.num_warps = 4});
  layer_norm_backward_kernel<float, 4, 1024>(
      tilec::Grid{programs}, nullptr, gx.ptr(), stride, gw.ptr(), gmean.ptr(), 1, grstd.ptr(), 1,
      gdx.ptr(), stride, gdw.ptr(), n, gdb.ptr(), n, gdy.ptr(), stride, rows, n,
      {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gy.get(), y, 1e-5, 1e-5, "y");
  expect_close(gmean.get(), mean, 1e-6, 1e-5, "mean");
  expect_close(grstd.get(), rstd, 0, 1e-5, "rstd");
  expect_close(gdx.get(), dx, 1e-5, 1e-4, "dx");
  expect_close(gdw.get(), dw, 1e-4, 1e-4, "dw");
  expect_close(gdb.get(), db, 1e-4, 1e-4, "db");
}

TEST(GpuCorpus, GroupNorm) {
  REQUIRE_GPU();
  const int batch = 3, groups = 2, cpg = 3, spatial = 37, hidden = cpg * spatial;
  auto x = uniform(size_t(batch) * groups * hidden, -2, 3, 8);
  auto w = uniform(groups * cpg, -1, 1, 9), b = uniform(groups * cpg, -1, 1, 10);
  auto y = poisoned(x.size()), mean = poisoned(batch * groups), rstd = mean;
  Mirror<float> gx(x), gw(w), gb(b), gy(y), gmean(mean), grstd(rstd);
  tilec::interpret::launch(host::group_norm_forward_kernel<float, 32>,
                           tilec::Grid{batch, groups}, y.data(), groups * hidden, hidden,
                           x.data(), groups * hidden, hidden, mean.data(), groups, 1,
                           rstd.data(), groups, 1, w.data(), b.data(), hidden, cpg, 1e-5f);
  group_norm_forward_kernel<float, 32>(tilec::Grid{batch, groups}, nullptr, gy.ptr(),
                                       groups * hidden, hidden, gx.ptr(), groups * hidden,
                                       hidden, gmean.ptr(), groups, 1, grstd.ptr(), groups, 1,
                                       gw.ptr(), gb.ptr(), hidden, cpg, 1e-5f, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gy.get(), y, 1e-4, 1e-4, "y");
  expect_close(gmean.get(), mean, 1e-6, 1e-5, "mean");
  expect_close(grstd.get(), rstd, 0, 1e-4, "rstd");
}

TEST(GpuCorpus, SwigluAndGeglu) {
  REQUIRE_GPU();
  constexpr int rows = 7, n = 1000, stride = 1003;
  auto a = uniform(size_t(rows) * stride, -4, 4, 11), b = uniform(a.size(), -2, 2, 12);
  auto dc = uniform(a.size(), -1, 1, 13);
  for (bool gelu : {false, true}) {
    SCOPED_TRACE(gelu ? "geglu" : "swiglu");
    auto c = poisoned(a.size()), da = a, db = b;
    Mirror<float> ga(a), gb(b), gdc(dc), gc(c), gda(da), gdb(db);
    if (gelu) {
      tilec::interpret::launch(host::geglu_tanh_forward_kernel<float, n, 1024>,
                               tilec::Grid{rows}, a.data(), b.data(), c.data(), stride);
      tilec::interpret::launch(host::geglu_tanh_backward_kernel<float, n, 1024>,
                               tilec::Grid{rows}, dc.data(), da.data(), db.data(), stride);
      geglu_tanh_forward_kernel<float, n, 1024>(tilec::Grid{rows}, nullptr, ga.ptr(), gb.ptr(),
                                                gc.ptr(), stride, {.num_warps = 4});
      geglu_tanh_backward_kernel<float, n, 1024>(tilec::Grid{rows}, nullptr, gdc.ptr(),
                                                 gda.ptr(), gdb.ptr(), stride, {.num_warps = 4});
    } else {
      tilec::interpret::launch(host::swiglu_forward_kernel<float, n, 1024>, tilec::Grid{rows},
                               a.data(), b.data(), c.data(), stride, 1.25f);
      tilec::interpret::launch(host::swiglu_backward_kernel<float, n, 1024>, tilec::Grid{rows},
                               dc.data(), da.data(), db.data(), stride, 1.25f);
      swiglu_forward_kernel<float, n, 1024>(tilec::Grid{rows}, nullptr, ga.ptr(), gb.ptr(),
                                            gc.ptr(), stride, 1.25f, {.num_warps = 4});
      swiglu_backward_kernel<float, n, 1024>(tilec::Grid{rows}, nullptr, gdc.ptr(), gda.ptr(),
                                             gdb.ptr(), stride, 1.25f, {.num_warps = 4});
    }
    tilec_test::synchronize();
    expect_close(gc.get(), c, 1e-5, 1e-5, "c");
    expect_close(gda.get(), da, 1e-5, 1e-5, "da");
    expect_close(gdb.get(), db, 1e-5, 1e-5, "db");
  }
}

TEST(GpuCorpus, Rope) {
  REQUIRE_GPU();
  constexpr int bsz = 2, sl = 3, n_qh = 5, n_kh = 3, hd = 12;
  auto q = uniform(size_t(bsz) * sl * n_qh * hd, -1, 1, 17);
  auto k = uniform(size_t(bsz) * sl * n_kh * hd, -1, 1, 18);
  auto cos = uniform(sl * hd, -1, 1, 19), sin = uniform(sl * hd, -1, 1, 20);
  Mirror<float> gq(q), gk(k), gcos(cos), gsin(sin);
  tilec::interpret::launch(host::triton_rope<float, bsz, 1, n_qh, n_kh, hd, 8, 4, 16, 8, false>,
                           tilec::Grid{bsz * sl}, q.data(), n_qh * hd, k.data(), n_kh * hd,
                           cos.data(), hd, sin.data(), hd, sl);
  triton_rope<float, bsz, 1, n_qh, n_kh, hd, 8, 4, 16, 8, false>(
      tilec::Grid{bsz * sl}, nullptr, gq.ptr(), n_qh * hd, gk.ptr(), n_kh * hd, gcos.ptr(), hd,
      gsin.ptr(), hd, sl, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gq.get(), q, 1e-6, 1e-5, "q forward");
  expect_close(gk.get(), k, 1e-6, 1e-5, "k forward");
  tilec::interpret::launch(host::triton_rope<float, bsz, 1, n_qh, n_kh, hd, 8, 4, 16, 8, true>,
                           tilec::Grid{bsz * sl}, q.data(), n_qh * hd, k.data(), n_kh * hd,
                           cos.data(), hd, sin.data(), hd, sl);
  triton_rope<float, bsz, 1, n_qh, n_kh, hd, 8, 4, 16, 8, true>(
      tilec::Grid{bsz * sl}, nullptr, gq.ptr(), n_qh * hd, gk.ptr(), n_kh * hd, gcos.ptr(), hd,
      gsin.ptr(), hd, sl, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gq.get(), q, 1e-6, 1e-5, "q backward");
  expect_close(gk.get(), k, 1e-6, 1e-5, "k backward");
}

TEST(GpuCorpus, CrossEntropy) {
  REQUIRE_GPU();
  const int rows = 6, V = 1000, stride = 1001;
  auto x = uniform(size_t(rows) * stride, -8, 8, 21);
  std::vector<int64_t> y = {3, 999, -100, 0, 512, 257};
  auto loss = poisoned(rows);
  Mirror<float> gx(x), gloss(loss);
  Mirror<int64_t> gy(y);
  for (int warps : {4, 8}) {
    SCOPED_TRACE(warps);
    gx.buf.upload(x);
    liger_cross_entropy_kernel<float, host::REDUCTION_MEAN, 256>(
        tilec::Grid{rows}, nullptr, gx.ptr(), int64_t(stride), gy.ptr(), 1, gloss.ptr(), 1, V, 5,
        -100, 1e-3f, 0.1f, {.num_warps = warps});
    tilec_test::synchronize();
    auto want_x = x, want_loss = loss;
    tilec::interpret::launch(host::liger_cross_entropy_kernel<float, host::REDUCTION_MEAN, 256>,
                             tilec::Grid{rows}, want_x.data(), int64_t(stride), y.data(), 1,
                             want_loss.data(), 1, V, 5, -100, 1e-3f, 0.1f);
    expect_close(gx.get(), want_x, 1e-7, 1e-4, "dx");
    expect_close(gloss.get(), want_loss, 1e-6, 1e-5, "loss");
  }
}

TEST(GpuCorpus, KlDiv) {
  REQUIRE_GPU();
  const int rows = 5, V = 1000, stride = 1003;
  auto y = uniform(size_t(rows) * stride, -9, -1, 22), gt = uniform(y.size(), 0, 0.01f, 23);
  auto row_loss = poisoned(rows), all_loss = poisoned(y.size()), grads = poisoned(y.size());
  Mirror<float> gy(y), ggt(gt), grow(row_loss), gall(all_loss), ggrads(grads);
  tilec::interpret::launch(
      host::kldiv_kernel_forward<float, 256, false, host::REDUCTION_MODE_BATCHMEAN>,
      tilec::Grid{rows}, y.data(), stride, gt.data(), stride, row_loss.data(), 1, V, 1e-10f);
  tilec::interpret::launch(host::kldiv_kernel_forward<float, 256, false, host::REDUCTION_MODE_NONE>,
                           tilec::Grid{rows}, y.data(), stride, gt.data(), stride,
                           all_loss.data(), stride, V, 1e-10f);
  tilec::interpret::launch(host::kldiv_kernel_backward<float, 256, false>, tilec::Grid{rows},
                           gt.data(), stride, grads.data(), stride, V);
  kldiv_kernel_forward<float, 256, false, host::REDUCTION_MODE_BATCHMEAN>(
      tilec::Grid{rows}, nullptr, gy.ptr(), stride, ggt.ptr(), stride, grow.ptr(), 1, V, 1e-10f,
      {.num_warps = 4});
  kldiv_kernel_forward<float, 256, false, host::REDUCTION_MODE_NONE>(
      tilec::Grid{rows}, nullptr, gy.ptr(), stride, ggt.ptr(), stride, gall.ptr(), stride, V,
      1e-10f, {.num_warps = 4});
  kldiv_kernel_backward<float, 256, false>(tilec::Grid{rows}, nullptr, ggt.ptr(), stride,
                                           ggrads.ptr(), stride, V, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(grow.get(), row_loss, 1e-6, 1e-5, "row loss");
  expect_close(gall.get(), all_loss, 1e-8, 1e-5, "loss");
  expect_close(ggrads.get(), grads, 0, 0, "grads");
}

TEST(GpuCorpus, ArgmaxMiddleAxis) {
  REQUIRE_GPU();
  const int M = 37, N = 1000, K = 3;
  auto x = uniform(size_t(M) * N * K, -1, 1, 31);
  for (int m = 0; m < M; ++m) { // ties, the second one in another chunk for odd m
    const int k = m % K, first = (m * 53) % 500, second = first + (m % 2 ? 300 : 7);
    x[(size_t(m) * N + first) * K + k] = 2.0f;
    x[(size_t(m) * N + second) * K + k] = 2.0f;
  }
  std::vector<int64_t> want(size_t(M) * K, -7);
  Mirror<float> gx(x);
  Mirror<int64_t> gout(want);
  tilec::interpret::launch(host::argmax_kernel<float, 4, 256>, tilec::Grid{(M + 3) / 4, K},
                           x.data(), want.data(), M, N, K);
  argmax_kernel<float, 4, 256>(tilec::Grid{(M + 3) / 4, K}, nullptr, gx.ptr(), gout.ptr(), M, N,
                               K, {.num_warps = 4});
  tilec_test::synchronize();
  EXPECT_EQ(gout.get(), want);
}

// K == 1, the launch of a 2-D input: the specialization for K_is_1 and a grid of one program
// along y holds only the copy with 16-byte runs. Then K == 1 over two programs along y, the
// second reading its rows one element on (program_id(1) == 1): the K_is_1 specialization's
// check of the program id sends it to the general copy, the first to the runs.
TEST(GpuCorpus, ArgmaxSpecializedForKOne) {
  REQUIRE_GPU();
  {
    const int M = 37, N = 1000;
    auto x = uniform(size_t(M) * N, -1, 1, 33);
    for (int m = 0; m < M; m += 3) // ties: the first index wins
      x[size_t(m) * N + (m * 41) % N] = x[size_t(m) * N + (m * 41 + 211) % N] = 2.0f;
    std::vector<int64_t> want(M, -7);
    Mirror<float> gx(x);
    Mirror<int64_t> gout(want);
    tilec::interpret::launch(host::argmax_kernel<float, 4, 256>, tilec::Grid{(M + 3) / 4, 1},
                             x.data(), want.data(), M, N, 1);
    argmax_kernel<float, 4, 256>(tilec::Grid{(M + 3) / 4, 1}, nullptr, gx.ptr(), gout.ptr(), M,
                                 N, 1, {.num_warps = 4});
    tilec_test::synchronize();
    EXPECT_EQ(gout.get(), want) << "K == 1, one program along y";
  }
  {
    const int M = 1, N = 1000;
    auto x = uniform(size_t(N) + 1, -1, 1, 34);
    x[0] = 3.0f;    // program (0, 0)'s maximum, outside program (0, 1)'s rows
    x[N] = 2.5f;    // program (0, 1)'s, outside program (0, 0)'s
    std::vector<int64_t> want(2, -7);
    Mirror<float> gx(x);
    Mirror<int64_t> gout(want);
    tilec::interpret::launch(host::argmax_kernel<float, 4, 256>, tilec::Grid{1, 2}, x.data(),
                             want.data(), M, N, 1);
    ASSERT_EQ(want, (std::vector<int64_t>{0, N - 1}));
    argmax_kernel<float, 4, 256>(tilec::Grid{1, 2}, nullptr, gx.ptr(), gout.ptr(), M, N, 1,
                                 {.num_warps = 4});
    tilec_test::synchronize();
    EXPECT_EQ(gout.get(), want) << "K == 1, two programs along y";
  }
}

TEST(GpuCorpus, UserSmallKernels) {
  REQUIRE_GPU();
  // Row cumsum: 4 rows per program, 1000-wide rows in a padded stride.
  const int rows = 37, cols = 1000, stride = 1003;
  auto x = uniform(size_t(rows) * stride, -1, 1, 41), y = poisoned(x.size() + 8);
  Mirror<float> gx(x), gy(y);
  tilec::interpret::launch(host::row_cumsum<float, 4, 1024>, tilec::Grid{(rows + 3) / 4},
                           x.data(), y.data(), rows, cols, stride);
  row_cumsum<float, 4, 1024>(tilec::Grid{(rows + 3) / 4}, nullptr, gx.ptr(), gy.ptr(), rows, cols,
                             stride, {.num_warps = 4});
  // Column sums through atomics (any order of the partial sums).
  const int M = 333, N = 517;
  auto a = uniform(size_t(M) * N, -1, 1, 42);
  std::vector<float> sums(N + 4, 0.0f);
  for (int c = N; c < N + 4; ++c)
    sums[c] = -5.0f; // guard
  Mirror<float> ga(a), gsums(sums);
  const tilec::Grid sum_grid{(M + 31) / 32, (N + 127) / 128};
  tilec::interpret::launch(host::column_sum_atomic<32, 128>, sum_grid, a.data(), sums.data(), M,
                           N);
  column_sum_atomic<32, 128>(sum_grid, nullptr, ga.ptr(), gsums.ptr(), M, N, {.num_warps = 4});
  // Transpose of a ragged [130, 75] matrix.
  const int TM = 130, TN = 75;
  auto t = uniform(size_t(TM) * TN, -1, 1, 43), tt = poisoned(t.size() + 8);
  Mirror<float> gt(t), gtt(tt);
  const tilec::Grid t_grid{(TM + 63) / 64, (TN + 31) / 32};
  tilec::interpret::launch(host::transpose<float, 64, 32>, t_grid, t.data(), tt.data(), TM, TN);
  transpose<float, 64, 32>(t_grid, nullptr, gt.ptr(), gtt.ptr(), TM, TN, {.num_warps = 4});
  // Bias + tanh-GELU in half.
  const int GM = 45, GN = 300;
  std::vector<tl::half> hx(size_t(GM) * GN), hb(GN), hy(hx.size() + 8, tl::half(-7.0f));
  auto hxf = uniform(hx.size(), -4, 4, 44), hbf = uniform(GN, -1, 1, 45);
  for (size_t i = 0; i < hx.size(); ++i)
    hx[i] = tl::half(hxf[i]);
  for (int i = 0; i < GN; ++i)
    hb[i] = tl::half(hbf[i]);
  Mirror<tl::half> ghx(hx), ghb(hb), ghy(hy);
  const tilec::Grid g_grid{(GM + 15) / 16, (GN + 255) / 256};
  tilec::interpret::launch(host::bias_gelu<16, 256>, g_grid, hx.data(), hb.data(), hy.data(), GM,
                           GN);
  bias_gelu<16, 256>(g_grid, nullptr, ghx.ptr(), ghb.ptr(), ghy.ptr(), GM, GN, {.num_warps = 4});
  tilec_test::synchronize();
  expect_close(gy.get(), y, 1e-4, 1e-4, "row cumsum"); // sums of 1000 in another order
  expect_close(gsums.get(), sums, 1e-4, 1e-5, "column sums");
  expect_close(gtt.get(), tt, 0, 0, "transpose");
  const auto got = ghy.get();
  for (size_t i = 0; i < hy.size(); ++i) // one half ulp apart at most (tanhf against tanh)
    ASSERT_NEAR(float(got[i]), float(hy[i]), 1e-3 + 1e-3 * std::fabs(float(hy[i]))) << "gelu " << i;
}

namespace {

/// vLLM's fused MoE on the GPU and in the interpreter, on the same routing and inputs: the
/// weights as vLLM stores them ([E, N, K]: stride_bk 1), as [E, K, N] (stride_bn 1), and with
/// A's columns two apart (stride_ak 2: the loop as written, every stride a variable). Each
/// takes another copy of the dot loop (unit-stride-dot-loops). T is half or bfloat16.
template <class T, int BM, int BN, int BK, int WARPS> void moeOnGpu(int layout) {
  SCOPED_TRACE(layout == 0 ? "B [E, N, K]" : layout == 1 ? "B [E, K, N]" : "A strided");
  const int tokens = 37, top_k = 2, E = 4, N = 200, K = 190;
  const int64_t sak = layout == 2 ? 2 : 1, lda = (K + 5) * sak;
  const int64_t sbe = int64_t(N) * K, sbk = layout == 0 ? 1 : N, sbn = layout == 0 ? K : 1;
  corpus::MoeRouting r = corpus::route(tokens, top_k, E, BM, {3}, 51);
  auto af = uniform(size_t(tokens) * lda, -1, 1, 52), bf = uniform(size_t(E) * sbe, -1, 1, 53);
  std::vector<T> a(af.begin(), af.end()), b(bf.begin(), bf.end());
  std::vector<T> c(size_t(r.valid) * N + 8, T(-7.0f)); // written up to valid * N only
  Mirror<T> ga(a), gb(b), gc(c);
  Mirror<float> gw(r.weights);
  Mirror<int32_t> gids(r.sorted_ids), gexperts(r.expert_ids);
  std::vector<int32_t> post = {r.post_padded};
  Mirror<int32_t> gpost(post);
  const int EM = int(r.sorted_ids.size());
  const tilec::Grid grid{uint32_t(((EM + BM - 1) / BM) * ((N + BN - 1) / BN))};
  tilec::interpret::launch(host::fused_moe_kernel<T, BM, BN, BK, 8, true, top_k>, grid, a.data(),
                           b.data(), c.data(), r.weights.data(), r.sorted_ids.data(),
                           r.expert_ids.data(), post.data(), N, K, EM, r.valid, lda, sak, sbe,
                           sbk, sbn, int64_t(N), int64_t(1));
  fused_moe_kernel<T, BM, BN, BK, 8, true, top_k>(
      grid, nullptr, ga.ptr(), gb.ptr(), gc.ptr(), gw.ptr(), gids.ptr(), gexperts.ptr(),
      gpost.ptr(), N, K, EM, r.valid, lda, sak, sbe, sbk, sbn, int64_t(N), int64_t(1),
      {.num_warps = WARPS});
  tilec_test::synchronize();
  const auto got = gc.get();
  for (size_t i = 0; i < c.size(); ++i) // sums of 190 products in another order, then rounded
    ASSERT_NEAR(float(got[i]), float(c[i]), 2e-2 + 1e-2 * std::fabs(float(c[i]))) << "c " << i;
}

} // namespace

TEST(GpuCorpus, FusedMoe) {
  REQUIRE_GPU();
  for (int layout : {0, 1, 2})
    moeOnGpu<tl::half, 64, 64, 32, 4>(layout);
  moeOnGpu<tl::bfloat16, 128, 128, 64, 8>(0);
}
