// device_print output format and device_assert failures.
#include "support.h"

#include <gtest/gtest.h>

using namespace tilec_test;

template <int BLOCK> TILEC_KERNEL void print_kernel(const float *x) {
  auto offs = tl::arange<0, BLOCK>();
  tl::device_print("x", tl::load(x + offs));
  if (tl::program_id(1) == 1)
    tl::device_print("two", tl::program_id(1), tl::expand_dims<0>(offs) < 1);
}

TEST(Debug, DevicePrint) {
  const float x[2] = {1.5f, -2.0f};
  testing::internal::CaptureStdout();
  tilec::interpret::launch(print_kernel<2>, tilec::Grid{1, 2}, x);
  const std::string got = testing::internal::GetCapturedStdout();
  EXPECT_EQ(got, "pid (0, 0, 0) idx (0) x: 1.5\n"
                 "pid (0, 0, 0) idx (1) x: -2\n"
                 "pid (0, 1, 0) idx (0) x: 1.5\n"
                 "pid (0, 1, 0) idx (1) x: -2\n"
                 "pid (0, 1, 0) two (operand 0): 1\n"
                 "pid (0, 1, 0) idx (0, 0) two (operand 1): 1\n"
                 "pid (0, 1, 0) idx (0, 1) two (operand 1): 0\n");
  testing::internal::CaptureStdout();
  tl::device_print("v", tl::full<int8_t, 1>(-3), tl::half(0.25f), uint64_t(1) << 63);
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "pid (0, 0, 0) idx (0) v (operand 0): -3\n"
            "pid (0, 0, 0) v (operand 1): 0.25\n"
            "pid (0, 0, 0) v (operand 2): 9223372036854775808\n");
}

template <int BLOCK> TILEC_KERNEL void assert_kernel(const int *x, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n, 1);
  tl::device_assert(v > 0, "values must be positive");
  tl::device_assert(n > 0, "n must be positive");
}

TEST(Debug, DeviceAssert) {
  std::vector<int> x(100, 1);
  tilec::interpret::launch(assert_kernel<32>, grid_for(100, 32), x.data(), 100); // passes
  x[70] = 0; // program 2, lane 6
  try {
    tilec::interpret::launch(assert_kernel<32>, grid_for(100, 32), x.data(), 100);
    FAIL() << "device_assert did not throw";
  } catch (const tl::device_assert_error &e) {
    EXPECT_STREQ(e.what(), "device_assert failed in program (2, 0, 0), element 6: "
                           "values must be positive");
  }
  EXPECT_EQ(tl::program_id(0), 0); // the launch restored the caller's view
  EXPECT_THROW(tl::device_assert(false, "scalar"), std::runtime_error);
}
