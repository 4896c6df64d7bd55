// gpu_test_support.h - what the GPU tests share: skipping without a GPU, poisoned host data,
// device mirrors of it, and comparison with the interpreter's results.
#pragma once

#include "device_buffer.h"

#include <tilec/runtime.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

/// Skips the test, saying why, on a machine without a usable GPU.
#define REQUIRE_GPU()                                                                              \
  do {                                                                                             \
    std::string why_;                                                                              \
    if (!tilec::gpu_available(&why_))                                                              \
      GTEST_SKIP() << "no GPU: " << why_;                                                          \
  } while (0)

namespace tilec_test {

/// A test with its own cache folder (TILEC_CACHE_DIR) and an empty in-memory cache, so that
/// compile and disk-hit counts are predictable.
class FreshCacheTest : public testing::Test {
protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() /
            ("tilec-gpu-test-" + std::to_string(std::random_device{}())))
               .string();
    setenv("TILEC_CACHE_DIR", dir_.c_str(), 1);
    tilec::clear_memory_cache();
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string dir_;
};

/// `count` elements of poison (all bytes 0xff: NaN floats, -1 integers).
template <class T> std::vector<T> poisoned(size_t count) {
  std::vector<T> v(count);
  std::memset(static_cast<void *>(v.data()), 0xff, count * sizeof(T));
  return v;
}

/// `n` floats uniform in [-1, 1), the same for the same seed.
inline std::vector<float> random_floats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

/// A device copy of `host` (poisoned when `host` is), downloaded again by `get()`.
template <class T> struct Mirror {
  explicit Mirror(const std::vector<T> &host) : buf(host.size() * sizeof(T)) { buf.upload(host); }
  T *ptr() const { return buf.as<T>(); }
  std::vector<T> get() const { return buf.download<T>(); }
  DeviceBuffer buf;
};

/// Both NaN (poison, or NaN results), or within `abs + rel * |want|` of the interpreter's value.
inline void expect_close(const std::vector<float> &gpu, const std::vector<float> &want, double abs,
                         double rel, const std::string &what) {
  ASSERT_EQ(gpu.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i]) || std::isnan(gpu[i])) {
      ASSERT_TRUE(std::isnan(want[i]) && std::isnan(gpu[i]))
          << what << " element " << i << ": gpu " << gpu[i] << ", interpreter " << want[i];
      continue;
    }
    ASSERT_NEAR(gpu[i], want[i], abs + rel * std::fabs(want[i])) << what << " element " << i;
  }
}

/// Bit for bit equal, element by element: poison (NaN bits) must still be the same poison,
/// which `==` on floats can never say.
template <class T>
void expect_same_bits(const std::vector<T> &gpu, const std::vector<T> &want,
                      const std::string &what) {
  ASSERT_EQ(gpu.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(std::memcmp(&gpu[i], &want[i], sizeof(T)), 0)
        << what << " element " << i << ": gpu " << +gpu[i] << ", interpreter " << +want[i];
}

} // namespace tilec_test
