// atomic_or / atomic_and / atomic_xor and half / bfloat16 atomic_add on the GPU against the
// interpreter running the same kernels (kernels/atomics.cpp), bit for bit: the flags do not
// depend on the order of the atomics, and the 16-bit sums are of small integers, exact in
// any order. Sizes are not multiples of the block; the words past the used ones are guards.
#include "atomics.tilec.h"
#include "gpu_test_support.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <random>

namespace host { // the kernels as the interpreter runs them
#include "kernels/atomics.cpp"
} // namespace host

namespace {

using tilec_test::expect_same_bits;
using tilec_test::Mirror;

TEST(GpuAtomics, BitFlagsWithOrAndXor) {
  REQUIRE_GPU();
  const int n = 1000;
  std::mt19937 rng(7);
  std::vector<int32_t> x(n);
  for (int32_t &v : x)
    v = int32_t(rng() % 256);
  std::vector<uint32_t> set(10, 0u), cleared(10, ~0u);
  std::vector<int64_t> toggled(10, 0x5a5a);
  Mirror<int32_t> dx(x);
  Mirror<uint32_t> dset(set), dcleared(cleared);
  Mirror<int64_t> dtoggled(toggled);
  tilec::interpret::launch(host::flag_bits<256>, tilec::Grid{4}, x.data(), set.data(),
                           cleared.data(), toggled.data(), n);
  flag_bits<256>(tilec::Grid{4}, nullptr, dx.ptr(), dset.ptr(), dcleared.ptr(), dtoggled.ptr(), n,
                 {.num_warps = 4});
  tilec_test::synchronize();
  expect_same_bits(dset.get(), set, "or");
  expect_same_bits(dcleared.get(), cleared, "and");
  expect_same_bits(dtoggled.get(), toggled, "xor");
  EXPECT_NE(set[0], 0u); // the data set some bits: the test can tell a no-op from the ops
}

template <class T> void check_small_sums(int n) {
  SCOPED_TRACE(testing::Message() << sizeof(T) << "-byte " << n);
  std::mt19937 rng(n);
  std::vector<T> x(n);
  for (T &v : x)
    v = T(float(int(rng() % 5) - 2)); // -2 .. 2: every partial sum is exact in 16 bits
  std::vector<T> sums(20, T(0.0f));
  for (int i = 16; i < 20; ++i)
    sums[i] = T(-9.0f); // guards
  Mirror<T> dx(x), dsums(sums);
  tilec::interpret::launch(host::small_sums<T, 128>, tilec::Grid{uint32_t((n + 127) / 128)},
                           x.data(), sums.data(), n);
  small_sums<T, 128>(tilec::Grid{uint32_t((n + 127) / 128)}, nullptr, dx.ptr(), dsums.ptr(), n,
                     {.num_warps = 4});
  tilec_test::synchronize();
  const auto got = dsums.get();
  for (size_t i = 0; i < sums.size(); ++i)
    ASSERT_EQ(float(got[i]), float(sums[i])) << "slot " << i;
}

TEST(GpuAtomics, HalfAndBfloat16Sums) {
  REQUIRE_GPU();
  check_small_sums<tl::half>(1000);
  check_small_sums<tl::bfloat16>(1000);
  check_small_sums<tl::bfloat16>(77);
}

TEST(GpuAtomics, OrderingsOtherThanTheDefault) {
  REQUIRE_GPU();
  const int n = 999;
  std::mt19937 rng(9);
  std::vector<int32_t> x(n);
  for (int32_t &v : x)
    v = int32_t(rng() % 10000);
  std::vector<int32_t> counts(20, 0);
  for (int i = 12; i < 16; ++i)
    counts[i] = 1 << 30;                     // minima start high
  counts[16] = -3;                           // counts n lanes from -3
  counts[17] = counts[18] = counts[19] = -3; // guards
  Mirror<int32_t> dx(x), dcounts(counts);
  tilec::interpret::launch(host::ordered_counts<256>, tilec::Grid{4}, x.data(), counts.data(), n);
  ordered_counts<256>(tilec::Grid{4}, nullptr, dx.ptr(), dcounts.ptr(), n, {.num_warps = 4});
  tilec_test::synchronize();
  expect_same_bits(dcounts.get(), counts, "counts, maxima, minima");
  EXPECT_EQ(counts[16], n - 3); // the interpreter counted every lane once
}

} // namespace
