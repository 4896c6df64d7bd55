// A run's store stays one vector store whatever the address looks like. NVVM used to split
// `*reinterpret_cast<Vec *>(p + row * n + col) = v` into four scalar stores when `row` and
// `col` were 64-bit (a DyT backward with int64 column offsets lost a quarter of its speed);
// store_run now writes the instruction itself. The kernels here are that address shape.
#include "ptx_of.h"

#include <gtest/gtest.h>

#include <string>

namespace {

const char *kSource = R"(
#include <tilec/device.cuh>

// Two runs of four floats per thread at p + row * n + col, col and row 64-bit.
extern "C" __global__ void f32_rows(const float *x, float *y, int n) {
  int64_t col[8];
  for (int i = 0; i < 8; ++i)
    col[i] = int64_t(blockIdx.x) * 4096 + int64_t(threadIdx.x * 8 + i);
  const int64_t row = blockIdx.y;
  float v[8];
  for (int i = 0; i < 8; i += 4)
    tilec::load_vec<4>(&v[i], x + col[i]);
  for (int i = 0; i < 8; ++i)
    v[i] *= 2.0f;
  for (int i = 0; i < 8; i += 4)
    tilec::store_vec<4>((y + row * int64_t(n)) + col[i], &v[i], true);
}

// One run of eight bf16 per thread, masked with a mask uniform over the run.
extern "C" __global__ void bf16_rows(const tl::bfloat16 *x, tl::bfloat16 *y, int n) {
  int64_t col[8];
  bool mask[8];
  for (int i = 0; i < 8; ++i) {
    col[i] = int64_t(blockIdx.x) * 4096 + int64_t(threadIdx.x * 8 + i);
    mask[i] = col[i] < int64_t(n);
  }
  const int64_t row = blockIdx.y;
  tl::bfloat16 v[8];
  tilec::load_vec<8>(v, x + col[0]);
  tilec::store_vec<8, true>((y + row * int64_t(n)) + col[0], v, mask, true);
}
)";

void expect_vector_stores(const std::string &arch) {
  std::string ptx = tilec::test::ptx_of(kSource, "vector_store.cu", arch);
  ASSERT_FALSE(ptx.empty());
  size_t vectors = 0;
  for (size_t at = ptx.find("st.global.v4.u32"); at != std::string::npos;
       at = ptx.find("st.global.v4.u32", at + 1))
    ++vectors;
  EXPECT_EQ(vectors, 3u) << "two float runs and one bf16 run, each one st.global.v4\n" << ptx;
  EXPECT_EQ(ptx.find("st.global.f32"), std::string::npos) << "a float run was split\n" << ptx;
  EXPECT_EQ(ptx.find("st.global.u16"), std::string::npos) << "a bf16 run was split\n" << ptx;
  EXPECT_EQ(ptx.find("st.global.v2.u16"), std::string::npos) << "a bf16 run was split\n" << ptx;
}

} // namespace

TEST(VectorStorePtx, Sm80) { expect_vector_stores("compute_80"); }
TEST(VectorStorePtx, Sm90a) { expect_vector_stores("compute_90a"); }
