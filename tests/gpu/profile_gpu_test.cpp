// The profiler on a real GPU: launches counted per specialization, timed with events that are
// read back later (profile.h).
#include "gpu_test_support.h"

#include <tilec/profile.h>
#include <tilec/runtime.h>

#include <gtest/gtest.h>

namespace {

namespace gen {
inline constexpr tilec::Source source = {"profile_gpu_test.cu", R"tilec_cuda(
template <int BLOCK, int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void fill_kernel(float* out, float v, int n) {
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n)
    out[i] = v;
}
)tilec_cuda"};
} // namespace gen

template <int BLOCK> void fill(float *out, float v, int n) {
  static tilec::Kernel kernel(gen::source, "fill_kernel", "i");
  tilec::SpecKey key;
  key.push(BLOCK);
  key.push(BLOCK / 32);
  key.push(3);
  key.push(tilec::div16_mask(out, v, n));
  void *params[] = {&out, &v, &n};
  kernel.launch(key, tilec::Grid{uint32_t(tilec::cdiv(n, BLOCK))}, BLOCK, 0, nullptr, params);
}

const tilec::KernelProfile *row_of(const std::vector<tilec::KernelProfile> &rows,
                                   const std::string &prefix) {
  for (const auto &r : rows)
    if (r.kernel.rfind(prefix, 0) == 0)
      return &r;
  return nullptr;
}

} // namespace

TEST(GpuProfile, CountsAndTimesEachSpecialization) {
  REQUIRE_GPU();
  tilec_test::DeviceBuffer out(1 << 22);
  fill<256>(out.as<float>(), 0.0f, 1 << 20); // compiled and loaded before recording starts
  tilec::profile_reset();
  tilec::profile_start();
  for (int i = 0; i < 50; ++i)
    fill<256>(out.as<float>(), float(i), 1 << 20);
  for (int i = 0; i < 3; ++i)
    fill<128>(out.as<float>(), float(i), 1 << 20);
  tilec::profile_stop();
  fill<256>(out.as<float>(), 1.0f, 1 << 20); // not recorded
  const auto rows = tilec::profile_data();
  const auto *big = row_of(rows, "fill_kernel<256");
  const auto *small = row_of(rows, "fill_kernel<128");
  ASSERT_NE(big, nullptr) << tilec::profile_table();
  ASSERT_NE(small, nullptr) << tilec::profile_table();
  EXPECT_EQ(big->launches, 50u);
  EXPECT_EQ(big->timed, 50u); // far fewer than the in-flight limit
  EXPECT_GT(big->mean_us(), 0.5);
  EXPECT_LT(big->mean_us(), 10000.0);
  EXPECT_EQ(small->launches, 3u);
  EXPECT_FALSE(big->arch.empty());
  // What ptxas gave it, from the driver: a few registers, no local memory.
  EXPECT_GT(big->registers, 0);
  EXPECT_LT(big->registers, 64);
  EXPECT_EQ(big->local_bytes, 0);
  const std::string table = tilec::profile_table();
  EXPECT_NE(table.find("fill_kernel<256"), std::string::npos) << table;
  tilec::profile_reset();
  EXPECT_TRUE(tilec::profile_data().empty());
}
