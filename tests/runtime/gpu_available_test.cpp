// Without a driver or device, the runtime says so cleanly instead of crashing.
#include <tilec/runtime.h>

#include <gtest/gtest.h>

TEST(GpuAvailable, AnswersWithAReason) {
  std::string why;
  bool ok = tilec::gpu_available(&why);
  if (ok)
    GTEST_SKIP() << "a GPU is present; the no-GPU path is not exercised here";
  EXPECT_FALSE(why.empty());
  EXPECT_FALSE(tilec::gpu_available()); // and again, without a reason pointer
  std::cout << "gpu_available() = false: " << why << "\n";
}

TEST(GpuAvailable, LaunchWithoutGpuThrowsError) {
  std::string why;
  if (tilec::gpu_available(&why))
    GTEST_SKIP() << "a GPU is present";
  static const tilec::Source source = {"none.cu", "template <int A, int B, int C, unsigned D>\n"
                                                  "__global__ void k() {}\n"};
  tilec::Kernel kernel(source, "k", "i");
  tilec::SpecKey key;
  for (int64_t v : {1, 4, 3, 0})
    key.push(v);
  try {
    kernel.launch(key, tilec::Grid{1}, 128, 0, nullptr, nullptr);
    FAIL() << "launch without a GPU must throw";
  } catch (const tilec::Error &e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
  EXPECT_THROW(kernel.function(key), tilec::Error);
}

TEST(GpuAvailable, StatsAndClearWorkWithoutGpu) {
  tilec::clear_memory_cache();
  tilec::RuntimeStats s = tilec::runtime_stats();
  EXPECT_GE(s.nvrtc_compiles + s.disk_hits + s.disk_rejected + s.memory_hits, 0u);
}
