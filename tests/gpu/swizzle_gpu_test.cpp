// tl::swizzle2d on the GPU: every program of grids whose last group of rows is partial writes
// where the grouped order sends it, the same as the interpreter running the same kernels
// (kernels/swizzle.cpp; the interpreter test checks those against a plain enumeration).
#include "device_buffer.h"
#include "swizzle.tilec.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

namespace host { // the kernels as the interpreter runs them
#include "kernels/swizzle.cpp"
} // namespace host

namespace {

TEST(GpuSwizzle2d, GroupedOrderMatchesTheInterpreter) {
  std::string why;
  if (!tilec::gpu_available(&why))
    GTEST_SKIP() << "no GPU: " << why;
  const int size_i = 7, size_j = 5, programs = size_i * size_j; // groups of 3, 3 and 1 rows
  std::vector<int> want(2 * programs, -1);
  tilec::interpret::launch(host::grouped_order<3>, tilec::Grid{uint32_t(programs)}, want.data(),
                           size_i, size_j);
  tilec_test::DeviceBuffer out(want.size() * sizeof(int));
  out.fill(0xff);
  grouped_order<3>(tilec::Grid{uint32_t(programs)}, nullptr, out.as<int>(), size_i, size_j,
                   {.num_warps = 1});
  tilec_test::synchronize();
  EXPECT_EQ(out.download<int>(), want);

  // The 2-D grid with a run-time group size of 4: groups of 4 and 3 rows.
  std::vector<int> want_2d(2 * programs, -1);
  tilec::interpret::launch(host::grouped_order_2d, tilec::Grid{uint32_t(size_i), uint32_t(size_j)},
                           want_2d.data(), 4);
  out.fill(0xff);
  grouped_order_2d(tilec::Grid{uint32_t(size_i), uint32_t(size_j)}, nullptr, out.as<int>(), 4,
                   {.num_warps = 4});
  tilec_test::synchronize();
  EXPECT_EQ(out.download<int>(), want_2d);
}

} // namespace
