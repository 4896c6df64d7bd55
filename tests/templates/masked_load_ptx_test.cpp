// A masked run whose mask is the same over the run (MASK_UNIFORM) is one vector load under a
// predicate over `other`: no lane-by-lane path. That path never runs for such a mask, but its
// scalar loads and the branches around every vector load kept ptxas from issuing a float
// tile's loads together (FlagGems' weight norm over columns: 260 loads in its SASS where
// Triton's has 33, and 0.67x Triton's speed).
#include "ptx_of.h"

#include <gtest/gtest.h>

#include <string>

namespace {

const char *kSource = R"(
#include <tilec/device.cuh>

// Four runs of four floats per thread, each under a mask uniform over the run, loaded with
// cache operator C (a PTX instruction of the device library's own for .cg).
template <tilec::Cache C> __device__ void masked_runs(const float *x, float *y, int n) {
  float v[16];
  bool mask[16];
  const float *src[16];
  for (int i = 0; i < 16; ++i) {
    const int col = int(blockIdx.x) * 4096 + int(threadIdx.x) * 4 + (i / 4) * 1024 + i % 4;
    mask[i] = (col / 4) * 4 < n;
    src[i] = x + col;
  }
  for (int i = 0; i < 16; i += 4)
    tilec::load_vec<4, true, tilec::Evict::normal, C>(&v[i], src[i], &mask[i], 0.0f);
  float s = 0.0f;
  for (int i = 0; i < 16; ++i)
    s += v[i];
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

extern "C" __global__ void f32_masked(const float *x, float *y, int n) {
  masked_runs<tilec::Cache::normal>(x, y, n);
}
extern "C" __global__ void f32_masked_cg(const float *x, float *y, int n) {
  masked_runs<tilec::Cache::cg>(x, y, n);
}
)";

using tilec::test::body_of;
using tilec::test::count;

void expect_vector_loads_only(const std::string &arch) {
  const std::string ptx = tilec::test::ptx_of(kSource, "masked_load.cu", arch);
  ASSERT_FALSE(ptx.empty());
  const std::string plain = body_of(ptx, "f32_masked"), cg = body_of(ptx, "f32_masked_cg");
  ASSERT_FALSE(plain.empty());
  ASSERT_FALSE(cg.empty());
  EXPECT_EQ(count(plain, "ld.global.v4.f32") + count(plain, "ld.global.nc.v4.f32"), 4u) << plain;
  EXPECT_EQ(count(plain, "ld.global.f32") + count(plain, "ld.global.nc.f32"), 0u)
      << "a lane-by-lane path\n" << plain;
  EXPECT_EQ(count(cg, "ld.global.cg.v4"), 4u) << cg;
  EXPECT_EQ(count(cg, "ld.global.cg.f32") + count(cg, "ld.global.cg.b32") +
                count(cg, "ld.global.cg.u32"), 0u)
      << "a lane-by-lane path\n" << cg;
}

} // namespace

TEST(MaskedLoadPtx, Sm80) { expect_vector_loads_only("compute_80"); }
TEST(MaskedLoadPtx, Sm90a) { expect_vector_loads_only("compute_90a"); }
