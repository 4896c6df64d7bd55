// Autotuned launchers on a real GPU (kernels/autotune.cpp): results are right after tuning,
// in-place outputs are reset or restored for the launch that follows tuning, the choice is
// kept on disk, heuristics alone work, and a config that cannot launch is skipped.
#include "autotune.tilec.h"
#include "gpu_test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>

namespace {

// A fresh TILEC_CACHE_DIR, so that the first launch of each test really tunes.
class FreshCache {
public:
  FreshCache() {
    std::random_device rd;
    dir_ = std::filesystem::temp_directory_path() /
           ("tilec-autotune-gpu-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(dir_);
    setenv("TILEC_CACHE_DIR", dir_.c_str(), 1);
    tilec::clear_memory_cache();
  }
  ~FreshCache() {
    unsetenv("TILEC_CACHE_DIR");
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

private:
  std::filesystem::path dir_;
};

using tilec_test::random_floats;

auto programs_of(int n) {
  return [n](const tilec::Config &meta) { return tilec::cdiv(n, meta["BLOCK"]); };
}

TEST(GpuAutotune, ResetToZeroBeforeTheLaunchThatFollowsTuning) {
  REQUIRE_GPU();
  FreshCache cache;
  const int n = 100003;
  std::vector<float> x = random_floats(n, 1);
  tilec_test::DeviceBuffer dx(n * sizeof(float)), dout(n * sizeof(float));
  dx.upload(x);
  dout.fill(0);
  auto before = tilec::runtime_stats();
  accumulate_autotuned(programs_of(n), nullptr, dx.as<float>(), dout.as<float>(), n);
  tilec_test::synchronize();
  EXPECT_EQ(tilec::runtime_stats().autotunings, before.autotunings + 1);
  std::vector<float> out = dout.download<float>();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], x[i]) << "at " << i << ": timing runs leaked into the result";
  // A launch with the kept choice adds once more: no reset outside tuning.
  accumulate_autotuned(programs_of(n), nullptr, dx.as<float>(), dout.as<float>(), n);
  tilec_test::synchronize();
  out = dout.download<float>();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 2 * x[i]) << "at " << i;
  EXPECT_EQ(tilec::runtime_stats().autotunings, before.autotunings + 1);
}

TEST(GpuAutotune, RestoreValueBeforeTheLaunchThatFollowsTuning) {
  REQUIRE_GPU();
  FreshCache cache;
  const int n = 50000;
  std::vector<float> x = random_floats(n, 2);
  tilec_test::DeviceBuffer dx(n * sizeof(float));
  dx.upload(x);
  scale_in_place_autotuned(programs_of(n), nullptr, dx.as<float>(), n, 3.0f);
  tilec_test::synchronize();
  std::vector<float> out = dx.download<float>();
  // The GPU may contract x * 3 + 1 into one fma (one rounding instead of two).
  for (int i = 0; i < n; ++i)
    ASSERT_NEAR(out[i], x[i] * 3.0f + 1.0f, 1e-6f * (1.0f + std::fabs(x[i] * 3.0f)))
        << "at " << i;
}

TEST(GpuAutotune, ChoiceIsKeptOnDisk) {
  REQUIRE_GPU();
  FreshCache cache;
  const int n = 4099;
  std::vector<float> x = random_floats(n, 3);
  tilec_test::DeviceBuffer dx(n * sizeof(float)), dout(n * sizeof(float));
  dx.upload(x);
  dout.fill(0);
  auto s0 = tilec::runtime_stats();
  accumulate_autotuned(programs_of(n), nullptr, dx.as<float>(), dout.as<float>(), n);
  auto s1 = tilec::runtime_stats();
  EXPECT_EQ(s1.autotunings, s0.autotunings + 1);
  tilec::clear_memory_cache(); // as a new process would start
  dout.fill(0);
  accumulate_autotuned(programs_of(n), nullptr, dx.as<float>(), dout.as<float>(), n);
  tilec_test::synchronize();
  auto s2 = tilec::runtime_stats();
  EXPECT_EQ(s2.autotunings, s1.autotunings);
  EXPECT_EQ(s2.autotune_disk_hits, s1.autotune_disk_hits + 1);
  std::vector<float> out = dout.download<float>();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], x[i]) << "at " << i;
}

TEST(GpuAutotune, HeuristicsAlone) {
  REQUIRE_GPU();
  FreshCache cache;
  for (int cols : {1, 33, 1000, 5000}) {
    const int rows = 37;
    std::vector<float> in = random_floats(size_t(rows) * cols, 4);
    tilec_test::DeviceBuffer din(in.size() * sizeof(float)), dout(rows * sizeof(float));
    din.upload(in);
    dout.fill(0xff);
    row_sum_autotuned(tilec::Grid{uint32_t(rows)}, nullptr, din.as<float>(), dout.as<float>(),
                      cols);
    tilec_test::synchronize();
    std::vector<float> out = dout.download<float>();
    for (int r = 0; r < rows; ++r) {
      double want = 0;
      for (int c = 0; c < cols; ++c)
        want += in[size_t(r) * cols + c];
      ASSERT_NEAR(out[r], want, 1e-4 * cols) << "row " << r << " of " << cols << " columns";
    }
  }
}

TEST(GpuAutotune, ConfigThatCannotLaunchIsSkipped) {
  REQUIRE_GPU();
  FreshCache cache;
  const int M = 256, N = 256, K = 512;
  std::vector<float> af = random_floats(size_t(M) * K, 5), bf = random_floats(size_t(K) * N, 6);
  std::vector<tl::half> a(af.begin(), af.end()), b(bf.begin(), bf.end());
  tilec_test::DeviceBuffer da(a.size() * 2), db(b.size() * 2), dc(size_t(M) * N * 4);
  da.upload(a);
  db.upload(b);
  dc.fill(0xff);
  auto grid = [&](const tilec::Config &meta) {
    return tilec::Grid{uint32_t(M / meta["BLOCK_M"]), uint32_t(N / meta["BLOCK_N"]), 1};
  };
  tuned_matmul_autotuned(grid, nullptr, da.as<tl::half>(), db.as<tl::half>(), dc.as<float>(), M, N,
                         K);
  tilec_test::synchronize();
  std::vector<float> c = dc.download<float>();
  for (int i = 0; i < M; i += 17)
    for (int j = 0; j < N; ++j) {
      double want = 0, mag = 0;
      for (int k = 0; k < K; ++k) {
        want += double(float(a[size_t(i) * K + k])) * float(b[size_t(k) * N + j]);
        mag += std::fabs(double(float(a[size_t(i) * K + k])) * float(b[size_t(k) * N + j]));
      }
      ASSERT_NEAR(c[size_t(i) * N + j], want, 1e-5 * mag + 1e-6) << "(" << i << ", " << j << ")";
    }
}

} // namespace
