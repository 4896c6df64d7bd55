// program_id and num_programs over 1-D, 2-D and 3-D grids.
#include "support.h"

#include <gtest/gtest.h>

// Each instance records its coordinates and the grid it sees, at its linear index.
TILEC_KERNEL void where_am_i(int *ids, int *nums, int *count) {
  int x = tl::program_id(0), y = tl::program_id(1), z = tl::program_id(2);
  int nx = tl::num_programs(0), ny = tl::num_programs(1), nz = tl::num_programs(2);
  int linear = (z * ny + y) * nx + x;
  tl::store(ids + 3 * linear, x);
  tl::store(ids + 3 * linear + 1, y);
  tl::store(ids + 3 * linear + 2, z);
  tl::store(nums + 3 * linear, nx);
  tl::store(nums + 3 * linear + 1, ny);
  tl::store(nums + 3 * linear + 2, nz);
  tl::store(count + linear, tl::load(count + linear) + 1);
}

void check_grid(tilec::Grid g) {
  const int total = int(g.x * g.y * g.z);
  std::vector<int> ids(3 * total, -1), nums(3 * total, -1), count(total, 0);
  tilec::interpret::launch(where_am_i, g, ids.data(), nums.data(), count.data());
  for (uint32_t z = 0; z < g.z; ++z)
    for (uint32_t y = 0; y < g.y; ++y)
      for (uint32_t x = 0; x < g.x; ++x) {
        int l = int((z * g.y + y) * g.x + x);
        ASSERT_EQ(count[l], 1) << "each instance runs exactly once";
        EXPECT_EQ(ids[3 * l], int(x));
        EXPECT_EQ(ids[3 * l + 1], int(y));
        EXPECT_EQ(ids[3 * l + 2], int(z));
        EXPECT_EQ(nums[3 * l], int(g.x));
        EXPECT_EQ(nums[3 * l + 1], int(g.y));
        EXPECT_EQ(nums[3 * l + 2], int(g.z));
      }
}

TEST(Program, Grid1D) { check_grid({7}); }
TEST(Program, Grid2D) { check_grid({5, 3}); }
TEST(Program, Grid3D) { check_grid({4, 3, 2}); }

TEST(Program, EmptyGridRunsNothing) {
  int count = 0;
  tilec::interpret::launch(where_am_i, tilec::Grid{0, 3, 1}, nullptr, nullptr, &count);
  EXPECT_EQ(count, 0);
}

// A 2-D grid over a row-major matrix: axis 0 walks columns in blocks, axis 1 walks rows.
template <int BLOCK> TILEC_KERNEL void row_scale(const float *x, float *out, int rows, int cols) {
  int row = tl::program_id(1);
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < cols;
  auto v = tl::load(x + row * cols + offs, mask);
  tl::store(out + row * cols + offs, v * float(row + 1) + float(tl::num_programs(1)), mask);
  (void)rows;
}

TEST(Program, TwoDimensionalKernel) {
  const int rows = 6, cols = 77;
  auto x = tilec_test::random_floats(rows * cols, -1.f, 1.f, 61);
  tilec_test::Rows<float> out(1, rows * cols);
  tilec::interpret::launch(row_scale<32>, tilec::Grid{uint32_t(tilec::cdiv(cols, 32)), rows},
                           x.data(), out.data(), rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      ASSERT_EQ(out.at(0, r * cols + c), x[r * cols + c] * float(r + 1) + float(rows));
  EXPECT_TRUE(out.guards_intact());
}

TEST(Program, StateOutsideALaunch) {
  EXPECT_EQ(tl::program_id(0), 0);
  EXPECT_EQ(tl::num_programs(2), 1);
  EXPECT_THROW(tl::program_id(3), std::out_of_range);
}

TEST(Program, LaunchOptionsAreAccepted) {
  int count = 0;
  tilec::interpret::launch(where_am_i, tilec::Grid{1}, tilec::LaunchOptions{8, 2},
                           std::vector<int>(3).data(), std::vector<int>(3).data(), &count);
  EXPECT_EQ(count, 1);
}
