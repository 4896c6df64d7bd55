// Cache hints of loads and stores (eviction policies, cache modifiers, volatile) in every
// position the vocabulary takes them: the interpreter moves the same values as without them.
#include "support.h"

#include <gtest/gtest.h>

namespace hinted {
#include "cache_modifiers.cpp" // tests/gpu/kernels: the GPU test's kernel
} // namespace hinted

namespace {

// A store has no volatile form, as in Triton: it does not compile.
template <class P>
concept volatile_store_compiles = requires(P p) {
  tl::store(p, 1.0f, tl::is_volatile);
};
static_assert(!volatile_store_compiles<float *>);
static_assert(!volatile_store_compiles<tl::tile<float *, 4>>);

TEST(MemoryHints, TileAccessesKeepValues) {
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8] = {}, z[8] = {};
  auto offs = tl::arange<0, 8>();
  auto m = offs < 6;
  auto a = tl::load(x + offs, m, -1.0f, tl::cache::cg);
  auto b = tl::load(x + offs, m, tl::cache::ca, tl::evict_last);
  auto c = tl::load(x + offs, tl::is_volatile);
  auto d = tl::load(x + offs, tl::evict_last, tl::cache::cv);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(tl::detail::at(a, i), i < 6 ? x[i] : -1.0f) << i;
    EXPECT_EQ(tl::detail::at(b, i), i < 6 ? x[i] : 0.0f) << i;
    EXPECT_EQ(tl::detail::at(c, i), x[i]) << i;
    EXPECT_EQ(tl::detail::at(d, i), x[i]) << i;
  }
  tl::store(y + offs, c * 2.0f, m, tl::cache::cs);
  tl::store(z + offs, c, tl::cache::wt, tl::evict_last);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(y[i], i < 6 ? 2 * x[i] : 0.0f) << i;
    EXPECT_EQ(z[i], x[i]) << i;
  }
}

TEST(MemoryHints, ScalarAccessesKeepValues) {
  int v = 7, out = 0;
  EXPECT_EQ(tl::load(&v, tl::is_volatile), 7);
  EXPECT_EQ(tl::load(&v, false, tl::cache::cg), 0);
  EXPECT_EQ(tl::load(&v, false, 3, tl::cache::ca, tl::evict_first), 3);
  tl::store(&out, 5, tl::cache::wb);
  EXPECT_EQ(out, 5);
  tl::store(&out, 6, false, tl::evict_last, tl::cache::cg);
  EXPECT_EQ(out, 5);
}

template <class T> void run_cached_copy(int n, int offset) {
  constexpr int B = 64;
  SCOPED_TRACE(testing::Message() << sizeof(T) << "-byte elements, n=" << n
                                  << " offset=" << offset);
  std::vector<T> x(size_t(n + offset));
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = T(float(i % 97));
  const int programs = (n + B - 1) / B;
  tilec_test::Rows<T> out(5, n);
  tilec_test::Rows<int> seen(1, programs);
  const int flag = 41;
  tilec::interpret::launch(hinted::cached_copy<T, B>, tilec::Grid{uint32_t(programs)},
                           x.data() + offset, out.row(0), out.row(1), out.row(2), out.row(3),
                           out.row(4), &flag, seen.row(0), n);
  for (int i = 0; i < n; ++i) {
    for (int r = 0; r < 4; ++r)
      ASSERT_EQ(out.at(r, i), x[size_t(i + offset)]) << "row " << r << " element " << i;
    ASSERT_EQ(out.at(4, i), x[size_t(i * 7 % n + offset)]) << "gather element " << i;
  }
  for (int p = 0; p < programs; ++p)
    ASSERT_EQ(seen.at(0, p), flag + 1) << "program " << p;
  EXPECT_TRUE(out.guards_intact());
  EXPECT_TRUE(seen.guards_intact());
}

TEST(MemoryHints, CachedCopyKernel) {
  run_cached_copy<float>(1000, 0);
  run_cached_copy<float>(5, 1);
  run_cached_copy<uint8_t>(300, 3);
}

} // namespace
