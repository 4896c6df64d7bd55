// Tutorial-style attention forward (tests/gpu/kernels/attention.cpp) on the GPU against a
// double-precision reference: causal and not, head dims 64 and 128, sequence lengths that
// are not multiples of the blocks, outputs poisoned first. It exercises what the translator
// does for such kernels: K^T loaded along its rows, Q staged once, row statistics reduced in
// the tensor cores' layout, P fed from registers to the second dot.
#include "attention.tilec.h"
#include "gpu_test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace {

struct Reference {
  std::vector<double> o, lse; // [heads, n, d] and [heads, n] (lse in base 2)
};

Reference reference(const std::vector<tl::half> &q, const std::vector<tl::half> &k,
                    const std::vector<tl::half> &v, int heads, int n, int d, bool causal,
                    double scale) {
  Reference r{std::vector<double>(size_t(heads) * n * d), std::vector<double>(size_t(heads) * n)};
  std::vector<double> s(n);
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < n; ++i) {
      const size_t qi = (size_t(h) * n + i) * d;
      double mx = -INFINITY;
      int last = causal ? i : n - 1;
      for (int j = 0; j <= last; ++j) {
        double dot = 0;
        for (int c = 0; c < d; ++c)
          dot += double(float(q[qi + c])) * double(float(k[(size_t(h) * n + j) * d + c]));
        s[j] = dot * scale;
        mx = std::max(mx, s[j]);
      }
      double sum = 0;
      for (int j = 0; j <= last; ++j)
        sum += (s[j] = std::exp(s[j] - mx));
      for (int j = 0; j <= last; ++j)
        for (int c = 0; c < d; ++c)
          r.o[qi + c] += s[j] / sum * double(float(v[(size_t(h) * n + j) * d + c]));
      r.lse[size_t(h) * n + i] = (mx + std::log(sum)) / std::log(2.0);
    }
  return r;
}

template <int BM, int BN, int D, bool CAUSAL>
void check_attention(int heads, int n, int num_warps, int num_stages) {
  std::mt19937 rng(7 + n + D);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const size_t elems = size_t(heads) * n * D;
  std::vector<tl::half> q(elems), k(elems), v(elems);
  for (auto *x : {&q, &k, &v})
    for (auto &e : *x)
      e = tl::half(dist(rng));
  const double scale = 1.0 / std::sqrt(double(D));
  tilec_test::Mirror<tl::half> dq(q), dk(k), dv(v), dout(tilec_test::poisoned<tl::half>(elems));
  tilec_test::Mirror<float> dlse(tilec_test::poisoned<float>(size_t(heads) * n));
  attn_fwd<BM, BN, D, CAUSAL, tl::half>(tilec::Grid{uint32_t((n + BM - 1) / BM), uint32_t(heads)},
                                        nullptr, dq.ptr(), dk.ptr(), dv.ptr(), dout.ptr(),
                                        dlse.ptr(), float(scale), n,
                                        {.num_warps = num_warps, .num_stages = num_stages});
  tilec_test::synchronize();
  Reference want = reference(q, k, v, heads, n, D, CAUSAL, scale);
  std::vector<tl::half> out = dout.get();
  std::vector<float> lse = dlse.get();
  const std::string what = "attn_fwd<" + std::to_string(BM) + ", " + std::to_string(BN) + ", " +
                           std::to_string(D) + (CAUSAL ? ", causal" : "") +
                           "> n=" + std::to_string(n);
  for (size_t i = 0; i < elems; ++i)
    ASSERT_NEAR(float(out[i]), want.o[i], 2e-2) << what << " output element " << i;
  for (size_t i = 0; i < lse.size(); ++i)
    ASSERT_NEAR(lse[i], want.lse[i], 1e-3 + 1e-3 * std::fabs(want.lse[i]))
        << what << " log-sum-exp of row " << i;
}

TEST(GpuAttention, TutorialForward) {
  REQUIRE_GPU();
  check_attention<128, 64, 64, false>(3, 200, 4, 3);
  check_attention<128, 64, 64, true>(3, 200, 4, 3);
  check_attention<64, 32, 128, false>(2, 77, 4, 2);
  check_attention<128, 64, 128, true>(2, 300, 8, 2);
  check_attention<64, 64, 64, true>(1, 1, 4, 3);
}

} // namespace
