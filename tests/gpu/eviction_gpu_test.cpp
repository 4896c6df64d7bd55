// Cache eviction hints on the GPU (kernels/eviction.cpp): hinted loads and stores move the
// same bits as the interpreter's plain ones, for float and half tiles whose runs are 16, 8, 4
// or 2 bytes (pointers aligned, or one element off so that runs shrink), with a masked last
// program and a gather. Outputs start poisoned, so an element one side skips shows.
#include "eviction.tilec.h"
#include "gpu_test_support.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <cstring>
#include <random>

namespace host { // the kernels as the interpreter runs them
#include "kernels/eviction.cpp"
} // namespace host

namespace {

using tilec_test::Mirror;
using tilec_test::poisoned;

template <class T, int B> void check_hinted_copy(int n, int offset, int num_warps) {
  SCOPED_TRACE(testing::Message() << "hinted_copy<" << sizeof(T) << "-byte, " << B << "> n=" << n
                                  << " offset=" << offset << " warps=" << num_warps);
  std::mt19937 rng(n * 13 + offset);
  std::vector<T> x(size_t(n + offset)), w(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = T(float(int(rng() % 2001) - 1000) / 8.0f);
    w[i] = T(float(int(rng() % 2001) - 1000) / 4.0f);
  }
  const uint32_t programs = uint32_t((n + B - 1) / B);
  auto streamed = poisoned<T>(size_t(n)), kept = streamed, gathered = streamed;
  Mirror<T> dx(x), dw(w), ds(streamed), dk(kept), dg(gathered);
  tilec::interpret::launch(host::hinted_copy<T, B>, tilec::Grid{programs}, x.data() + offset,
                           w.data() + offset, streamed.data(), kept.data(), gathered.data(), n);
  hinted_copy<T, B>(tilec::Grid{programs}, nullptr, dx.ptr() + offset, dw.ptr() + offset,
                    ds.ptr(), dk.ptr(), dg.ptr(), n, {.num_warps = num_warps});
  tilec_test::synchronize();
  auto same_bits = [](const std::vector<T> &a, const std::vector<T> &b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
  };
  EXPECT_TRUE(same_bits(ds.get(), streamed)) << "evict_first load and store";
  EXPECT_TRUE(same_bits(dk.get(), kept)) << "evict_last load and store";
  EXPECT_TRUE(same_bits(dg.get(), gathered)) << "gather";
}

TEST(GpuEviction, HintedAccessesMoveTheSameBits) {
  REQUIRE_GPU();
  check_hinted_copy<float, 1024>(3000, 0, 4);   // 16-byte runs, a masked last program
  check_hinted_copy<float, 1024>(3000, 1, 4);   // 4-byte accesses
  check_hinted_copy<float, 32>(20, 0, 1);       // one element per lane
  check_hinted_copy<tl::half, 2048>(5000, 0, 4); // 16-byte runs of 8 halves
  check_hinted_copy<tl::half, 2048>(5000, 1, 4); // 2-byte accesses (not hinted)
  check_hinted_copy<tl::half, 256>(256, 0, 2);   // 4-byte runs of 2 halves
  check_hinted_copy<tl::half, 64>(50, 0, 4);     // fewer elements than threads
}

} // namespace
