// Cache modifiers and volatile loads on the GPU (kernels/cache_modifiers.cpp): accesses with
// PTX cache operators move the same bits as the interpreter's plain ones, for float, half and
// uint8_t tiles whose runs are 16 to 1 bytes (pointers aligned, or one element off so that
// runs shrink), with a masked last program, a gather and scalar accesses. Outputs start
// poisoned, so an element one side skips or writes wrongly shows.
#include "cache_modifiers.tilec.h"
#include "gpu_test_support.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <random>

namespace host { // the kernels as the interpreter runs them
#include "kernels/cache_modifiers.cpp"
} // namespace host

namespace {

using tilec_test::expect_same_bits;
using tilec_test::Mirror;
using tilec_test::poisoned;

template <class T, int B> void check_cached_copy(int n, int offset, int num_warps) {
  SCOPED_TRACE(testing::Message() << "cached_copy<" << sizeof(T) << "-byte, " << B << "> n=" << n
                                  << " offset=" << offset << " warps=" << num_warps);
  std::mt19937 rng(n * 31 + offset);
  std::vector<T> x(size_t(n + offset));
  for (auto &v : x)
    v = T(float(int(rng() % 201) - 100) / 4.0f);
  const int programs = (n + B - 1) / B;
  std::vector<int> flag = {41};
  auto a = poisoned<T>(size_t(n)), b = a, c = a, d = a, g = a;
  auto seen = poisoned<int>(size_t(programs));
  Mirror<T> dx(x), da(a), db(b), dc(c), dd(d), dg(g);
  Mirror<int> dflag(flag), dseen(seen);
  tilec::interpret::launch(host::cached_copy<T, B>, tilec::Grid{uint32_t(programs)},
                           x.data() + offset, a.data(), b.data(), c.data(), d.data(), g.data(),
                           flag.data(), seen.data(), n);
  cached_copy<T, B>(tilec::Grid{uint32_t(programs)}, nullptr, dx.ptr() + offset, da.ptr(), db.ptr(),
                    dc.ptr(), dd.ptr(), dg.ptr(), dflag.ptr(), dseen.ptr(), n,
                    {.num_warps = num_warps});
  tilec_test::synchronize();
  expect_same_bits(da.get(), a, ".ca load, .wb store");
  expect_same_bits(db.get(), b, ".cg load, .cg store");
  expect_same_bits(dc.get(), c, ".cv load, .cs store");
  expect_same_bits(dd.get(), d, "volatile load, .wt store");
  expect_same_bits(dg.get(), g, "gather: .cg + evict_last load, .wt + evict_last store");
  expect_same_bits(dseen.get(), seen, "volatile scalar load, .wt scalar store");
}

TEST(GpuCacheModifiers, ModifiedAccessesMoveTheSameBits) {
  REQUIRE_GPU();
  check_cached_copy<float, 1024>(3000, 0, 4);    // 16-byte runs, a masked last program
  check_cached_copy<float, 1024>(3000, 1, 4);    // 4-byte accesses
  check_cached_copy<float, 32>(20, 0, 1);        // one element per lane
  check_cached_copy<tl::half, 2048>(5000, 0, 4); // 16-byte runs of 8 halves
  check_cached_copy<tl::half, 2048>(5000, 1, 4); // 2-byte accesses
  check_cached_copy<tl::half, 256>(256, 0, 2);   // 4-byte runs of 2 halves
  check_cached_copy<uint8_t, 1024>(3000, 0, 4);  // 8-byte runs of bytes
  check_cached_copy<uint8_t, 1024>(3000, 3, 4);  // 1-byte accesses
  check_cached_copy<uint8_t, 64>(50, 0, 4);      // fewer elements than threads
}

} // namespace
