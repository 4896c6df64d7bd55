// Creation (arange, zeros, full, *_like), loops (range, static_range), hints and the
// kernel/helper annotations.
#include "support.h"

#include <gtest/gtest.h>

using namespace tilec_test;

TEST(Creation, ArangeZerosFull) {
  auto a = tl::arange<4, 12>();
  static_assert(std::is_same_v<decltype(a), tl::tile<int32_t, 8>>);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(tl::detail::at(a, i), 4 + i);
  auto z = tl::zeros<tl::bfloat16, 16>();
  static_assert(std::is_same_v<decltype(z), tl::tile<tl::bfloat16, 16>>);
  EXPECT_EQ(tl::detail::at(z, 15).bits, 0);
  auto f = tl::full<uint8_t, 4>(300); // converted to the element type
  EXPECT_EQ(tl::detail::at(f, 2), uint8_t(44));
  auto fl = tl::full_like(a, 2.9f);
  static_assert(std::is_same_v<decltype(fl), tl::tile<int32_t, 8>>);
  EXPECT_EQ(tl::detail::at(fl, 0), 2);
  auto zl = tl::zeros_like(tl::full<double, 2>(3.0));
  static_assert(std::is_same_v<decltype(zl), tl::tile<double, 2>>);
  EXPECT_EQ(tl::detail::at(zl, 1), 0.0);
}

// A helper that kernels call: takes and returns tiles.
template <class T, int N> TILEC_FUNC tl::tile<T, N> square_plus(tl::tile<T, N> t, T c) {
  return t * t + c;
}

// Sums x[i], x[i + n], x[i + 2n], ... over `reps` copies with tl::range and accumulates a
// static_range unrolled term.
template <int BLOCK> TILEC_KERNEL void loop_kernel(const float *x, float *out, int n, int reps) {
  int start = tl::multiple_of<BLOCK>(tl::program_id(0) * BLOCK);
  auto offs = tl::max_contiguous<BLOCK>(start + tl::arange<0, BLOCK>());
  auto mask = offs < n;
  auto acc = tl::zeros<float, BLOCK>();
  for (int r : tl::range(0, reps))
    acc += tl::load(x + r * n + offs, mask);
  for (int k : tl::static_range<0, 3>())
    acc = acc + float(k);                   // + 0 + 1 + 2
  for (int k : tl::range(reps - 1, -1, -2)) // reps-1, reps-3, ... down to 0 or 1
    acc -= float(k);
  tl::assume(reps > 0);
  tl::store(out + offs, square_plus<float, BLOCK>(acc, 1.0f), mask);
}

TEST(Loops, RangeStaticRangeHints) {
  for (int n : kSizes) {
    const int reps = 3;
    auto x = random_floats(n * reps, -1.f, 1.f, 71);
    Rows<float> out(1, n);
    tilec::interpret::launch(loop_kernel<256>, grid_for(n, 256), x.data(), out.data(), n, reps);
    for (int i = 0; i < n; ++i) {
      float acc = 0;
      for (int r = 0; r < reps; ++r)
        acc += x[r * n + i];
      acc = acc + 0.f;
      acc = acc + 1.f;
      acc = acc + 2.f;
      for (int k = reps - 1; k > -1; k -= 2)
        acc -= float(k);
      ASSERT_EQ(out.at(0, i), acc * acc + 1.0f) << i;
    }
    EXPECT_TRUE(out.guards_intact()) << n;
  }
}

TEST(Loops, RangeShapes) {
  std::vector<int> seen;
  for (int i : tl::range(5))
    seen.push_back(i);
  for (int i : tl::range(10, 0, -4))
    seen.push_back(i);
  for (int i : tl::static_range<0, 7, 3>())
    seen.push_back(i);
  for (auto i : tl::range(int64_t(1) << 40, (int64_t(1) << 40) + 1))
    seen.push_back(int(i >> 40));
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 4, 10, 6, 2, 0, 3, 6, 1}));
  for (int i : tl::range(3, 3))
    ADD_FAILURE() << "empty range ran " << i;
}

TEST(Loops, RangeOptionsDoNotChangeTheIterations) {
  // Triton's keyword arguments of tl.range: how the GPU runs the loop, never what it visits.
  std::vector<int> seen;
  for (int i : tl::range(0, 7, 3, {.warp_specialize = false, .num_stages = 4}))
    seen.push_back(i);
  for (int i : tl::range(2, 4, {.loop_unroll_factor = 2}))
    seen.push_back(i);
  for (int i : tl::range(3, tl::range_options{.num_stages = 1, .flatten = true}))
    seen.push_back(i);
  for (int i : tl::range(6, 0, -3, {}))
    seen.push_back(i);
  EXPECT_EQ(seen, (std::vector<int>{0, 3, 6, 2, 3, 0, 1, 2, 6, 3}));
}

TEST(Hints, ReturnTheirOperand) {
  EXPECT_EQ(tl::multiple_of<16>(48), 48);
  auto t = tl::arange<0, 4>();
  EXPECT_EQ(tl::detail::at(tl::multiple_of<4>(t), 3), 3);
  EXPECT_EQ(tl::detail::at(tl::max_contiguous<4>(t), 2), 2);
  tl::assume(true);
  tl::assume(t >= 0);
  EXPECT_THROW(tl::assume(t > 0), std::logic_error); // the interpreter checks assumptions
}
