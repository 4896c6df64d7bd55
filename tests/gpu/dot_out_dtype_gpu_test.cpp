// tl::dot<tl::half> (Triton's fp16 out_dtype) on the GPU (kernels/dot_out_dtype.cpp) against
// the interpreter, bit for bit: operands are small multiples of 1/4, so every float sum is
// exact in any order and only the rounding to half, the same on both sides, is left. Outputs
// start poisoned; sizes are not multiples of the tile.
#include "dot_out_dtype.tilec.h"
#include "gpu_test_support.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <random>

namespace host { // the kernels as the interpreter runs them
#include "kernels/dot_out_dtype.cpp"
} // namespace host

namespace {

using tilec_test::expect_same_bits;
using tilec_test::Mirror;
using tilec_test::poisoned;

/// Multiples of 1/4 in [-2, 2] (exact in half and fp8 e4m3).
template <class T> std::vector<T> quarters(size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<T> v(count);
  for (T &x : v)
    x = T(float(int(rng() % 17) - 8) / 4.0f);
  return v;
}

template <int BM, int BN, int BK, class T>
void check_loop(int m, int n, int k, int num_warps, int num_stages) {
  SCOPED_TRACE(testing::Message() << "half_out_loop<" << BM << ", " << BN << ", " << BK << ", "
                                  << sizeof(T) << "-byte> " << m << "x" << n << "x" << k
                                  << " stages " << num_stages);
  auto a = quarters<T>(size_t(m) * k, unsigned(m + k)), b = quarters<T>(size_t(k) * n, unsigned(n));
  auto c = poisoned<tl::half>(size_t(m) * n);
  Mirror<T> da(a), db(b);
  Mirror<tl::half> dc(c);
  tilec::Grid grid{uint32_t((m + BM - 1) / BM), uint32_t((n + BN - 1) / BN)};
  tilec::interpret::launch(host::half_out_loop<BM, BN, BK, T>, grid, a.data(), b.data(), c.data(),
                           m, n, k);
  half_out_loop<BM, BN, BK, T>(grid, nullptr, da.ptr(), db.ptr(), dc.ptr(), m, n, k,
                               {.num_warps = num_warps, .num_stages = num_stages});
  tilec_test::synchronize();
  expect_same_bits(dc.get(), c, "half accumulator over the K loop");
}

template <int BM, int BN, int BK> void check_once(int num_warps) {
  SCOPED_TRACE(testing::Message() << "half_out_once<" << BM << ", " << BN << ", " << BK << ">");
  auto a = quarters<tl::half>(size_t(BM) * BK, 5), b = quarters<tl::half>(size_t(BK) * BN, 6);
  auto c = poisoned<tl::half>(size_t(BM) * BN);
  auto d = poisoned<float>(size_t(BM) * BN);
  Mirror<tl::half> da(a), db(b), dc(c);
  Mirror<float> dd(d);
  tilec::interpret::launch(host::half_out_once<BM, BN, BK>, tilec::Grid{1}, a.data(), b.data(),
                           c.data(), d.data());
  half_out_once<BM, BN, BK>(tilec::Grid{1}, nullptr, da.ptr(), db.ptr(), dc.ptr(), dd.ptr(),
                            {.num_warps = num_warps});
  tilec_test::synchronize();
  expect_same_bits(dc.get(), c, "tl::dot<tl::half>");
  expect_same_bits(dd.get(), d, "tl::dot<float>");
}

TEST(GpuDotOutDtype, HalfResultsMatchTheInterpreter) {
  REQUIRE_GPU();
  check_once<16, 16, 16>(1);
  check_once<32, 32, 16>(4);
  check_loop<64, 64, 32, tl::half>(100, 70, 200, 4, 3);
  check_loop<64, 64, 32, tl::half>(64, 64, 32, 4, 1);
  check_loop<32, 32, 16, tl::half>(50, 40, 90, 4, 2);
}

TEST(GpuDotOutDtype, HalfResultsOfFp8Operands) {
  REQUIRE_GPU();
  const auto &dev = tilec::detail::driver();
  if (dev.cc_major * 10 + dev.cc_minor < 89)
    GTEST_SKIP() << "fp8 dot needs sm_89 or newer, this GPU is sm_" << dev.cc_major << dev.cc_minor;
  check_loop<64, 64, 64, tl::float8_e4m3>(100, 70, 200, 4, 3);
}

} // namespace
