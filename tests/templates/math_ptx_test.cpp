// The device library's float math compiles to the instructions Triton's does: tl::exp2,
// tl::sqrt and tl::rsqrt to one special-function approximation each (flushing subnormals),
// tl::exp to ex2.approx of x * log2(e) and tl::sigmoid through it; tl::sqrt_rn stays the
// correctly rounded square root and doubles stay exact. Half and bfloat16 compute in float.
#include "ptx_of.h"

#include <gtest/gtest.h>

#include <string>

namespace {

const char *kSource = R"(
#include <tilec/device.cuh>

#define UNARY(NAME, OP, T)                                                                     \
  extern "C" __global__ void NAME(const T *x, T *y) { y[threadIdx.x] = tilec::OP(x[threadIdx.x]); }
UNARY(exp_f, exp, float)
UNARY(exp2_f, exp2, float)
UNARY(sqrt_f, sqrt, float)
UNARY(rsqrt_f, rsqrt, float)
UNARY(sigmoid_f, sigmoid, float)
UNARY(sqrt_rn_f, sqrt_rn, float)
UNARY(exp2_h, exp2, tl::half)
UNARY(exp_d, exp, double)
)";

/// The PTX of one kernel of kSource: from its .entry to the next one.
std::string kernel_ptx(const std::string &ptx, const std::string &name) {
  size_t at = ptx.find(".entry " + name + "(");
  if (at == std::string::npos)
    return "";
  size_t end = ptx.find(".entry ", at + 1);
  return ptx.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

void expect_instructions(const std::string &arch) {
  std::string ptx = tilec::test::ptx_of(kSource, "math.cu", arch);
  ASSERT_FALSE(ptx.empty());
  struct Want {
    const char *kernel, *has, *lacks;
  };
  for (const Want &w : {Want{"exp_f", "ex2.approx.f32", "ex2.approx.ftz.f32"},
                        Want{"exp2_f", "ex2.approx.ftz.f32", "ex2.approx.f32 "},
                        Want{"sqrt_f", "sqrt.approx.ftz.f32", "sqrt.rn.f32"},
                        Want{"rsqrt_f", "rsqrt.approx.ftz.f32", "rsqrt.approx.f32"},
                        Want{"sigmoid_f", "ex2.approx.f32", "div.rn.f32"},
                        Want{"sqrt_rn_f", "sqrt.rn.f32", "sqrt.approx"},
                        Want{"exp2_h", "ex2.approx.ftz.f32", "ex2.approx.f32 "},
                        Want{"exp_d", "fma.rn.f64", "ex2.approx"}}) {
    std::string body = kernel_ptx(ptx, w.kernel);
    ASSERT_FALSE(body.empty()) << w.kernel << " is missing from the PTX for " << arch;
    EXPECT_NE(body.find(w.has), std::string::npos) << w.kernel << ": no " << w.has << " (" << arch << ")";
    EXPECT_EQ(body.find(w.lacks), std::string::npos) << w.kernel << ": " << w.lacks << " (" << arch << ")";
  }
}

} // namespace

TEST(MathPtx, Sm80) { expect_instructions("compute_80"); }
TEST(MathPtx, Sm90a) { expect_instructions("compute_90a"); }
