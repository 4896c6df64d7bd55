// main.cpp - checks softmax_kernel and softmax_persistent (softmax.cpp) against a
// double-precision CPU reference on awkward shapes: a single element, rows that are not a
// multiple of the vector width, rows one past a power of two, padded row strides. Runs on the
// GPU when there is one (plus 4096 x 16384), else in the interpreter.
//
//   softmax [--gpu] [--interpreter]
//     --gpu          require a GPU: exit 77 ("SKIPPED") without one (for ctest)
//     --interpreter  run in the host interpreter even when a GPU is present
#include "runners.h"

#include "example_main.h"
#include "host_check.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace example {

int block_for(int cols) {
  int block = 32; // at least one warp's worth
  while (block < cols)
    block *= 2;
  return block;
}

} // namespace example

namespace {

using example::Shape;
using example::Variant;

constexpr size_t kPad = 1024; // output floats past the last row that must stay untouched

bool is_poison(float v) { return example::is_poisoned(&v, sizeof v); }

const char *name(Variant v) { return v == Variant::row_per_program ? "row" : "persistent"; }

bool check(Variant v, Shape s, bool gpu) {
  example::Random rng{0x50f7ull + uint64_t(s.rows) * 131 + s.cols};
  size_t in_len = size_t(s.rows - 1) * s.in_stride + s.cols;
  std::vector<float> in(in_len);
  // Values in [-8, 8): a spread of e^16 within a row. The padding between rows holds a huge
  // value that would dominate a row's max if the kernel read it.
  for (size_t i = 0; i < in_len; ++i)
    in[i] = (int(i % s.in_stride) < s.cols) ? 8.0f * rng.next() : 1e30f;
  size_t out_len = size_t(s.rows) * s.out_stride + kPad;
  std::vector<float> out(out_len);
  if (gpu)
    example::softmax_on_gpu(v, in.data(), in.size(), out.data(), out.size(), s);
  else
    example::softmax_in_interpreter(v, in.data(), out.data(), out.size(), s);

  size_t bad = 0, overwritten = 0;
  double worst = 0;
  std::vector<double> e(s.cols);
  for (int r = 0; r < s.rows; ++r) {
    const float *x = &in[size_t(r) * s.in_stride];
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < s.cols; ++c)
      mx = std::fmax(mx, x[c]);
    for (int c = 0; c < s.cols; ++c)
      sum += e[c] = std::exp(double(x[c]) - mx);
    const float *y = &out[size_t(r) * s.out_stride];
    for (int c = 0; c < s.cols; ++c) {
      double want = e[c] / sum, err = std::fabs(y[c] - want) / want;
      if (!(err <= 1e-5)) { // NaN (a missed element) fails too
        if (bad < 5)
          std::printf("  mismatch at row %d col %d: got %g, want %g\n", r, c, y[c], want);
        ++bad;
      } else if (err > worst) {
        worst = err;
      }
    }
    for (int c = s.cols; c < s.out_stride; ++c)
      overwritten += !is_poison(y[c]);
  }
  for (size_t i = size_t(s.rows) * s.out_stride; i < out_len; ++i)
    overwritten += !is_poison(out[i]);
  if (overwritten)
    std::printf("  %zu floats outside the rows were written (masking bug)\n", overwritten);
  bool ok = bad == 0 && overwritten == 0;
  std::printf("%-4s %-10s %5d x %-5d (strides %d/%d, BLOCK=%d) %s, max rel err %.2g",
              ok ? "ok" : "FAIL", name(v), s.rows, s.cols, s.in_stride, s.out_stride,
              example::block_for(s.cols),
              bad ? (std::to_string(bad) + " mismatches").c_str() : "all match", worst);
  if (ok && gpu && size_t(s.rows) * s.cols >= (1u << 24)) {
    double ms = example::time_on_gpu_ms(v, s.rows, s.cols);
    std::printf("  %.3f ms, %.0f GB/s", ms, 2.0 * s.rows * s.cols * 4 / (ms * 1e6));
  }
  std::printf("\n");
  return ok;
}

bool run_checks(const example::RunOptions &run) {
  // {rows, cols, in_stride, out_stride}
  std::vector<Shape> shapes = {{1, 1, 1, 1}, {37, 1000, 1003, 1005}, {128, 4099, 4099, 4099}};
  if (run.gpu)
    shapes.push_back({4096, 16384, 16384, 16384});

  bool ok = true;
  for (Variant v : {Variant::row_per_program, Variant::persistent})
    for (Shape s : shapes)
      ok &= check(v, s, run.gpu);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  return example::run_example(argc, argv, {"kernels", {}, run_checks});
}
