// While loops on the GPU: a data-dependent loop carrying a tile, and a spin lock taken by
// every program instance in turn.
#include "device_buffer.h"
#include "while_loop.tilec.h"

#include <gtest/gtest.h>

#include <random>

namespace {

TEST(GpuWhileLoop, HalvingsAndSpinLock) {
  std::string why;
  if (!tilec::gpu_available(&why))
    GTEST_SKIP() << "no GPU: " << why;
  constexpr int kBlock = 256;
  const int n = 10007;
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> dist(0, 1 << 20);
  std::vector<int> x(n);
  for (int &v : x)
    v = dist(rng);
  const int programs = (n + kBlock - 1) / kBlock;
  tilec_test::DeviceBuffer dx(n * sizeof(int)), dout(n * sizeof(int));
  tilec_test::DeviceBuffer dlock(sizeof(int)), dtotal(sizeof(int));
  dx.upload(x);
  dout.fill(0xff);
  dlock.fill(0);
  dtotal.fill(0);
  halvings<kBlock>(tilec::Grid{uint32_t(programs)}, nullptr, dx.as<int>(), dout.as<int>(),
                   dlock.as<int>(), dtotal.as<int>(), n);
  tilec_test::synchronize();
  std::vector<int> out = dout.download<int>();
  long long total = 0;
  for (int p = 0; p < programs; ++p) {
    int rounds = 0;
    for (int i = p * kBlock; i < std::min(n, (p + 1) * kBlock); ++i) {
      int v = x[i], c = 0;
      while (v >= 1) {
        v /= 2;
        ++c;
      }
      ASSERT_EQ(out[i], c) << "element " << i;
      rounds = std::max(rounds, c);
    }
    total += rounds;
  }
  EXPECT_EQ(dtotal.download<int>()[0], total);
  EXPECT_EQ(dlock.download<int>()[0], 0);
}

} // namespace
