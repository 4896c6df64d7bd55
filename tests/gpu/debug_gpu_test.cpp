// tl::device_print and tl::device_assert on the GPU (kernels/debug.cpp). Printed lines must
// be those the interpreter prints for the same kernel, in any order (GPU threads print
// concurrently), each once: threads holding copies of elements stay quiet. A failed
// assertion stops the kernel with an error; it runs in a child process (a death test),
// since it leaves the CUDA context unusable.
#include "debug.tilec.h"
#include "gpu_test_support.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <unistd.h>

namespace host { // the kernels as the interpreter runs them
#include "kernels/debug.cpp"
} // namespace host

namespace {

std::vector<std::string> sorted_lines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

template <int B> void check_print(int n, int num_warps) {
  SCOPED_TRACE(testing::Message() << "print_tiles<" << B << "> n=" << n << " warps=" << num_warps);
  std::vector<float> x(B);
  for (int i = 0; i < B; ++i)
    x[i] = 0.5f * float(i) - 1.25f;
  tilec_test::DeviceBuffer dx(x.size() * sizeof(float));
  dx.upload(x);
  const tilec::Grid grid{2, 1, 1};
  testing::internal::CaptureStdout();
  tilec::interpret::launch(host::print_tiles<B>, grid, x.data(), n);
  const std::string want = testing::internal::GetCapturedStdout();
  testing::internal::CaptureStdout();
  print_tiles<B>(grid, nullptr, dx.as<float>(), n, {.num_warps = num_warps});
  tilec_test::synchronize(); // device printf output is written out here
  const std::string got = testing::internal::GetCapturedStdout();
  EXPECT_EQ(sorted_lines(got), sorted_lines(want)) << "GPU printed:\n" << got;
}

TEST(GpuDebug, DevicePrintMatchesTheInterpreter) {
  REQUIRE_GPU();
  check_print<8>(5, 1); // rows repeat across lanes and warps: copies must not print
  check_print<8>(8, 4);
  check_print<64>(50, 2);
}

TEST(GpuDebug, DeviceAssertPassesAndFails) {
  REQUIRE_GPU();
  std::vector<int> x(100, 1);
  tilec_test::DeviceBuffer dx(x.size() * sizeof(int));
  dx.upload(x);
  check_positive<32>(tilec::Grid{4}, nullptr, dx.as<int>(), 100);
  tilec_test::synchronize(); // every value positive: no error

  GTEST_FLAG_SET(death_test_style, "threadsafe"); // a fresh process with its own context
  auto fail = [] {
    dup2(STDERR_FILENO, STDOUT_FILENO); // device printf output goes where the test looks
    std::vector<int> y(100, 1);
    y[70] = 0; // program 2, element 6
    tilec_test::DeviceBuffer dy(y.size() * sizeof(int));
    dy.upload(y);
    check_positive<32>(tilec::Grid{4}, nullptr, dy.as<int>(), 100);
    try {
      tilec_test::synchronize();
    } catch (const std::exception &e) {
      std::fprintf(stderr, "synchronize failed: %s\n", e.what());
      std::fflush(nullptr);
      std::_Exit(3);
    }
    std::_Exit(0);
  };
  // Our line, or CUDA's own assertion message should the kernel stop before its printf
  // buffer is written out; both name the source line (that of the tile assertion in
  // kernels/debug.cpp), the program and the message.
  EXPECT_EXIT(fail(), testing::ExitedWithCode(3),
              "debug\\.cpp:18: (device_assert failed in program \\(2, 0, 0\\), element 6: values "
              "must be positive|check_positive: block: \\[2,0,0\\], thread: \\[[0-9]+,0,0\\] "
              "Assertion `values must be positive` failed)");
}

} // namespace
