// tl::inline_asm_elementwise on the GPU (kernels/inline_asm.cpp): the PTX gives, bit for bit,
// what the interpreter computes with the kernels' host fallbacks, over a masked last program,
// scalar and argument-less asm and rank-2 broadcasting. Outputs start poisoned.
#include "gpu_test_support.h"
#include "inline_asm.tilec.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <random>

namespace host { // the kernels as the interpreter runs them
#include "kernels/inline_asm.cpp"
} // namespace host

namespace {

using tilec_test::expect_same_bits;
using tilec_test::Mirror;
using tilec_test::poisoned;

template <int B> void check_elementwise(int n, int num_warps) {
  SCOPED_TRACE(testing::Message() << "asm_elementwise<" << B << "> n=" << n);
  std::mt19937 rng{unsigned(n)};
  std::vector<float> x(static_cast<size_t>(n));
  std::vector<tl::half> h(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    x[size_t(i)] = float(int(rng() % 20001) - 10000) / 64.0f;
    h[size_t(i)] = tl::half(float(int(rng() % 2001) - 1000) / 8.0f);
  }
  const int programs = (n + B - 1) / B, k = 1000;
  auto f = poisoned<float>(size_t(n));
  auto hn = poisoned<tl::half>(size_t(n));
  auto bits = poisoned<unsigned>(size_t(n)), brev = bits;
  auto sums = poisoned<int>(size_t(programs));
  auto sm = poisoned<unsigned>(size_t(programs));
  Mirror<float> dx(x), df(f);
  Mirror<tl::half> dh(h), dhn(hn);
  Mirror<unsigned> dbits(bits), dbrev(brev), dsm(sm);
  Mirror<int> dsums(sums);
  tilec::Grid grid{uint32_t(programs)};
  tilec::interpret::launch(host::asm_elementwise<B>, grid, x.data(), h.data(), f.data(), hn.data(),
                           bits.data(), brev.data(), sums.data(), sm.data(), n, k);
  asm_elementwise<B>(grid, nullptr, dx.ptr(), dh.ptr(), df.ptr(), dhn.ptr(), dbits.ptr(),
                     dbrev.ptr(), dsums.ptr(), dsm.ptr(), n, k, {.num_warps = num_warps});
  tilec_test::synchronize();
  expect_same_bits(df.get(), f, "fma.rn.f32 with a scalar argument");
  expect_same_bits(dhn.get(), hn, "neg.f16 in h registers");
  expect_same_bits(dbits.get(), bits, "a float's bits in an r register");
  expect_same_bits(dbrev.get(), brev, "brev.b32");
  expect_same_bits(dsums.get(), sums, "scalar asm");
  for (unsigned where : dsm.get())
    EXPECT_LT(where, 4096u) << "%smid, an SM index, was written by every program";
}

TEST(GpuInlineAsm, ElementwisePtxMatchesTheHostFallbacks) {
  REQUIRE_GPU();
  check_elementwise<256>(1000, 4);
  check_elementwise<1024>(4096, 8);
  check_elementwise<32>(20, 1);
}

TEST(GpuInlineAsm, RankTwoArgumentsBroadcast) {
  REQUIRE_GPU();
  std::vector<int> col(16), row(32);
  for (int i = 0; i < 16; ++i)
    col[size_t(i)] = 1000 * i;
  for (int j = 0; j < 32; ++j)
    row[size_t(j)] = j - 7;
  auto out = poisoned<int>(16 * 32);
  Mirror<int> dcol(col), drow(row), dout(out);
  tilec::interpret::launch(host::asm_outer_sum<16, 32>, tilec::Grid{1}, col.data(), row.data(),
                           out.data());
  asm_outer_sum<16, 32>(tilec::Grid{1}, nullptr, dcol.ptr(), drow.ptr(), dout.ptr(),
                        {.num_warps = 4});
  tilec_test::synchronize();
  expect_same_bits(dout.get(), out, "[16, 1] + [1, 32] in add.s32");
}

} // namespace
