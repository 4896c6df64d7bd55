// tl::swizzle2d against a plain enumeration of the grouped order: groups of size_g rows
// (the last one shorter), each walked column by column, top to bottom. The kernels are the
// GPU test's (tests/gpu/kernels/swizzle.cpp).
#include "support.h"

#include "swizzle.cpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

/// Where row-major number k of a size_i x size_j grid goes: entry k.
std::vector<std::pair<int, int>> grouped_reference(int size_i, int size_j, int size_g) {
  std::vector<std::pair<int, int>> order;
  for (int first = 0; first < size_i; first += size_g) {
    const int rows = std::min(size_g, size_i - first);
    for (int col = 0; col < size_j; ++col)
      for (int row = first; row < first + rows; ++row)
        order.emplace_back(row, col);
  }
  return order;
}

/// (size_i, size_j, size_g): non-square grids whose last group is partial, a group as tall
/// as the grid or taller (column-major order), groups of one row (the identity).
const std::vector<std::array<int, 3>> kGrids = {{7, 5, 3}, {10, 3, 4}, {5, 8, 2}, {9, 4, 8},
                                                {4, 6, 4}, {6, 7, 9},  {5, 3, 1}, {1, 6, 3}};

void expect_grouped(const std::vector<int> &out, int size_i, int size_j, int size_g) {
  auto want = grouped_reference(size_i, size_j, size_g);
  for (int k = 0; k < size_i * size_j; ++k) {
    ASSERT_EQ(out[2 * k], want[k].first)
        << "row of program " << k << " in " << size_i << "x" << size_j << " by " << size_g;
    ASSERT_EQ(out[2 * k + 1], want[k].second)
        << "column of program " << k << " in " << size_i << "x" << size_j << " by " << size_g;
  }
}

template <int GROUP> void check_1d(int size_i, int size_j) {
  std::vector<int> out(2 * size_i * size_j, -1);
  tilec::interpret::launch(grouped_order<GROUP>, tilec::Grid{uint32_t(size_i * size_j)}, out.data(),
                           size_i, size_j);
  expect_grouped(out, size_i, size_j, GROUP);
}

TEST(Swizzle2d, OneDimensionalGridLikeTheMatmulTutorial) {
  check_1d<3>(7, 5);
  check_1d<4>(10, 3);
  check_1d<2>(5, 8);
  check_1d<8>(9, 4);
  check_1d<4>(4, 6);
  check_1d<9>(6, 7);
  check_1d<1>(5, 3);
  check_1d<3>(1, 6);
}

TEST(Swizzle2d, TwoDimensionalGridAndRunTimeGroup) {
  for (auto [size_i, size_j, size_g] : kGrids) {
    std::vector<int> out(2 * size_i * size_j, -1);
    tilec::interpret::launch(grouped_order_2d, tilec::Grid{uint32_t(size_i), uint32_t(size_j)},
                             out.data(), size_g);
    expect_grouped(out, size_i, size_j, size_g);
  }
}

// The tutorial's own spelling of the order (examples/matmul/matmul.cpp) gives the same pids.
TEST(Swizzle2d, MatchesTheTutorialsFormula) {
  for (int num_pid_m : {1, 5, 8, 13})
    for (int num_pid_n : {1, 3, 8})
      for (int group_m : {1, 4, 8}) {
        for (int pid = 0; pid < num_pid_m * num_pid_n; ++pid) {
          int num_pid_in_group = group_m * num_pid_n;
          int first_pid_m = pid / num_pid_in_group * group_m;
          int group_size_m = std::min(num_pid_m - first_pid_m, group_m);
          auto [pid_m, pid_n] =
              tl::swizzle2d(pid / num_pid_n, pid % num_pid_n, num_pid_m, num_pid_n, group_m);
          ASSERT_EQ(pid_m, first_pid_m + (pid % num_pid_in_group) % group_size_m) << pid;
          ASSERT_EQ(pid_n, (pid % num_pid_in_group) / group_size_m) << pid;
        }
      }
}

TEST(Swizzle2d, ResultType) {
  // The arguments' common type, as C++ arithmetic on them would give.
  static_assert(std::is_same_v<decltype(tl::swizzle2d(1, 2, 3, 4, 5)), std::pair<int, int>>);
  static_assert(
      std::is_same_v<decltype(tl::swizzle2d(1, 2, int64_t(3), 4, 5)), std::pair<int64_t, int64_t>>);
  static_assert(
      std::is_same_v<decltype(tl::swizzle2d(int8_t(1), int8_t(2), int8_t(3), int8_t(4), int8_t(5))),
                     std::pair<int, int>>);
  // Number 6e9 + 1 (past int32) is number 1 of the group of rows from 3e9.
  auto [i, j] = tl::swizzle2d(int64_t(3'000'000'000), 1, int64_t(4'000'000'000), 2, 3);
  EXPECT_EQ(i, int64_t(3'000'000'001));
  EXPECT_EQ(j, 0);
  // A group size of 0 divides by zero: defined (the GPU's values), not undefined behaviour.
  (void)tl::swizzle2d(1, 1, 2, 2, 0);
}

} // namespace
