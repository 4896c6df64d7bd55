// The vector add example, run on the CPU in fp32, fp16 and bf16.
#include "support.h"

#include <vector_add.cpp>

#include <gtest/gtest.h>

using namespace tilec_test;

TEST(VectorAdd, Float32) {
  for (int n : kSizes) {
    auto x = random_floats(n, -100.f, 100.f, 1);
    auto y = random_floats(n, -100.f, 100.f, 2);
    Rows<float> out(1, n);
    tilec::interpret::launch(add_kernel<1024>, grid_for(n, 1024), x.data(), y.data(), out.data(),
                             n);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(out.at(0, i), x[i] + y[i]) << "n=" << n << " i=" << i;
    EXPECT_TRUE(out.guards_intact()) << "n=" << n;
  }
}

TEST(VectorAdd, SmallBlockManyPrograms) {
  const int n = 1000;
  auto x = random_floats(n, -1.f, 1.f, 3);
  auto y = random_floats(n, -1.f, 1.f, 4);
  Rows<float> out(1, n);
  tilec::interpret::launch(add_kernel<16>, grid_for(n, 16), x.data(), y.data(), out.data(), n);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out.at(0, i), x[i] + y[i]) << i;
  EXPECT_TRUE(out.guards_intact());
}

template <class T> void check_typed_add() {
  for (int n : kSizes) {
    auto xf = random_floats(n, -50.f, 50.f, 5);
    auto yf = random_floats(n, -50.f, 50.f, 6);
    std::vector<T> x(xf.begin(), xf.end()), y(yf.begin(), yf.end());
    Rows<T> out(1, n);
    tilec::interpret::launch(add_kernel_t<T, 256>, grid_for(n, 256), x.data(), y.data(), out.data(),
                             n);
    for (int i = 0; i < n; ++i) {
      T want = T(float(x[i]) + float(y[i])); // fp32 accumulate, one rounding
      ASSERT_EQ(out.at(0, i).bits, want.bits) << "n=" << n << " i=" << i;
    }
    EXPECT_TRUE(out.guards_intact()) << "n=" << n;
  }
}

TEST(VectorAdd, Float16) { check_typed_add<tl::half>(); }
TEST(VectorAdd, BFloat16) { check_typed_add<tl::bfloat16>(); }

TEST(VectorAdd, Float32ThroughTypedKernel) {
  const int n = 1000;
  auto x = random_floats(n, -10.f, 10.f, 7);
  auto y = random_floats(n, -10.f, 10.f, 8);
  Rows<float> out(1, n);
  tilec::interpret::launch(add_kernel_t<float, 128>, grid_for(n, 128), x.data(), y.data(),
                           out.data(), n);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out.at(0, i), x[i] + y[i]) << i;
  EXPECT_TRUE(out.guards_intact());
}
