// tl::inline_asm_elementwise in the interpreter: with a host fallback it computes each
// element from the arguments' elements (broadcast together, scalars and no arguments too);
// without one it throws tl::inline_asm_error naming the call's line.
#include "support.h"

#include <gtest/gtest.h>

namespace asm_kernels {
#include "inline_asm.cpp" // tests/gpu/kernels: the GPU test's kernels
} // namespace asm_kernels

namespace {

template <int B> TILEC_KERNEL void asm_without_fallback(const float *x, float *y) {
  auto offs = tl::arange<0, B>();
  tl::store(y + offs, tl::inline_asm_elementwise<float>("tanh.approx.f32 $0, $1;", "=f,f",
                                                        tl::load(x + offs)));
}

TEST(InlineAsm, HostFallbackComputesEachElement) {
  constexpr int B = 64;
  const int n = 100, k = 7;
  std::vector<float> x(n);
  std::vector<tl::half> h(n);
  for (int i = 0; i < n; ++i) {
    x[size_t(i)] = float(i) - 20.5f;
    h[size_t(i)] = tl::half(float(i % 13) - 6.0f);
  }
  std::vector<float> f(n);
  std::vector<tl::half> hn(n);
  std::vector<unsigned> bits(n), brev(n), sm(2, 99);
  std::vector<int> sums(2);
  tilec::interpret::launch(asm_kernels::asm_elementwise<B>, tilec::Grid{2}, x.data(), h.data(),
                           f.data(), hn.data(), bits.data(), brev.data(), sums.data(), sm.data(), n,
                           k);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(f[size_t(i)], std::fma(x[size_t(i)], 0.5f, x[size_t(i)])) << i;
    EXPECT_EQ(float(hn[size_t(i)]), -float(h[size_t(i)])) << i;
    EXPECT_EQ(bits[size_t(i)], std::bit_cast<unsigned>(x[size_t(i)])) << i;
    EXPECT_EQ(brev[size_t(i)], asm_kernels::asm_host::bit_reverse(bits[size_t(i)])) << i;
  }
  EXPECT_EQ(asm_kernels::asm_host::bit_reverse(1u), 0x80000000u);
  EXPECT_EQ(sums[0], k);
  EXPECT_EQ(sums[1], k + 1);
  EXPECT_EQ(sm[0], 0u);
  EXPECT_EQ(sm[1], 0u);
}

TEST(InlineAsm, RankTwoArgumentsBroadcast) {
  int col[4] = {0, 10, 20, 30}, row[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[32] = {};
  tilec::interpret::launch(asm_kernels::asm_outer_sum<4, 8>, tilec::Grid{1}, col, row, out);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(out[i * 8 + j], col[i] + row[j]);
}

TEST(InlineAsm, WithoutFallbackItIsAnErrorNamingTheCall) {
  float x[16] = {}, y[16] = {};
  try {
    tilec::interpret::launch(asm_without_fallback<16>, tilec::Grid{1}, x, y);
    FAIL() << "tl::inline_asm_elementwise ran in the interpreter";
  } catch (const tl::inline_asm_error &e) {
    std::string what = e.what();
    EXPECT_NE(what.find("inline_asm_test.cpp:16"), std::string::npos) << what;
    EXPECT_NE(what.find("runs only on the GPU"), std::string::npos) << what;
    EXPECT_NE(what.find("tl::host_fallback"), std::string::npos) << what;
  }
}

} // namespace
