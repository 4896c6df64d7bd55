// main.cpp - checks the layer norm kernels (layer_norm.cpp) against a double-precision CPU
// reference computed from the same fp16 inputs: the forward pass with the row held in
// registers and with a loop over column blocks, and the backward pass (dx, dw, db). Runs on
// the GPU when there is one (plus 4096 x 8192), else in the interpreter.
//
//   layer_norm [--gpu] [--interpreter]
//     --gpu          require a GPU: exit 77 ("SKIPPED") without one (for ctest)
//     --interpreter  run in the host interpreter even when a GPU is present
#include "runners.h"

#include "example_main.h"
#include "host_check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace example {

int block_for(int cols) {
  int block = 32;
  while (block < cols)
    block *= 2;
  return block;
}

// As Triton's tutorial: one warp per 256 fp16 values (16-byte accesses), 4 to 16 warps.
int warps_for(int block) { return std::clamp(block / 256, 4, 16); }

} // namespace example

namespace {

using example::Config;
using example::Problem;

// Compares got with want; the tolerance is relative to each value and to the vector's RMS
// (a value that cancels to near zero may be off by the rounding of its larger terms).
bool compare(const char *what, const std::vector<float> &got, const std::vector<double> &want,
             double rel) {
  double rms = 0;
  for (double w : want)
    rms += w * w;
  rms = std::sqrt(rms / std::max<size_t>(want.size(), 1));
  size_t bad = 0;
  double worst = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    double err = std::fabs(got[i] - want[i]), tol = rel * (std::fabs(want[i]) + rms);
    if (!(err <= tol)) { // NaN (a missed element) fails too
      if (bad < 5)
        std::printf("  %s mismatch at %zu: got %g, want %g\n", what, i, got[i], want[i]);
      ++bad;
    }
    worst = std::max(worst, err / (std::fabs(want[i]) + rms));
  }
  std::printf(" %s %s (max err %.1e)", what, bad ? "FAIL" : "ok", worst);
  return bad == 0;
}

template <class T> std::vector<float> to_float(const std::vector<T> &v) {
  return std::vector<float>(v.begin(), v.end());
}

bool check(int rows, int cols, bool gpu) {
  example::Random rng{0x1a7e4ull + uint64_t(rows) * 977 + cols};
  size_t n = size_t(rows) * cols;
  std::vector<tl::half> x(n), dy(n), w(cols), b(cols), y(n), dx(n), dw(cols), db(cols);
  std::vector<float> mean(rows), rstd(rows);
  for (size_t i = 0; i < n; ++i) {
    x[i] = tl::half(2.0f * rng.next() + 0.5f); // a non-zero mean
    dy[i] = tl::half(rng.next());
  }
  for (int c = 0; c < cols; ++c) {
    w[c] = tl::half(1.0f + 0.5f * rng.next());
    b[c] = tl::half(0.5f * rng.next());
  }
  Problem p{rows,     cols,      1e-5f,     x.data(),  w.data(),    b.data(),   dy.data(),
            y.data(), dx.data(), dw.data(), db.data(), mean.data(), rstd.data()};

  // The reference, in double from the fp16 inputs.
  std::vector<double> ry(n), rmean(rows), rrstd(rows), rdx(n), rdw(cols, 0), rdb(cols, 0);
  for (int r = 0; r < rows; ++r) {
    const tl::half *xr = &x[size_t(r) * cols], *dyr = &dy[size_t(r) * cols];
    double mu = 0, var = 0, c1 = 0, c2 = 0;
    for (int c = 0; c < cols; ++c)
      mu += float(xr[c]);
    mu /= cols;
    for (int c = 0; c < cols; ++c)
      var += (float(xr[c]) - mu) * (float(xr[c]) - mu);
    double rs = 1.0 / std::sqrt(var / cols + p.eps);
    rmean[r] = mu;
    rrstd[r] = rs;
    for (int c = 0; c < cols; ++c) {
      double xhat = (float(xr[c]) - mu) * rs, wdy = double(float(w[c])) * float(dyr[c]);
      ry[size_t(r) * cols + c] = xhat * float(w[c]) + float(b[c]);
      c1 += xhat * wdy;
      c2 += wdy;
      rdw[c] += float(dyr[c]) * xhat;
      rdb[c] += float(dyr[c]);
    }
    c1 /= cols;
    c2 /= cols;
    for (int c = 0; c < cols; ++c) {
      double xhat = (float(xr[c]) - mu) * rs, wdy = double(float(w[c])) * float(dyr[c]);
      rdx[size_t(r) * cols + c] = (wdy - (xhat * c1 + c2)) * rs;
    }
  }

  bool ok = true;
  int full = example::block_for(cols);
  // Forward: the row in one tile, then (where the row is wider than 32) a loop over blocks
  // of a quarter of it.
  std::vector<int> fwd_blocks = {full};
  if (full >= 128)
    fwd_blocks.push_back(full / 4);
  for (int fb : fwd_blocks) {
    Config cfg{fb, full, 1};
    std::printf("%5d x %-5d forward BLOCK=%-5d", rows, cols, fb);
    if (gpu)
      example::forward_on_gpu(p, cfg);
    else
      example::forward_in_interpreter(p, cfg);
    bool f = compare("y", to_float(y), ry, 2e-3);
    f &= compare("mean", mean, rmean, 1e-5);
    f &= compare("rstd", rstd, rrstd, 1e-5);
    std::printf("\n");
    ok &= f;
  }
  // Backward from the reference mean and rstd (as the forward pass stores them, in fp32).
  for (int r = 0; r < rows; ++r) {
    mean[r] = float(rmean[r]);
    rstd[r] = float(rrstd[r]);
  }
  int groups = gpu ? std::min(rows, 264) : std::min(rows, 5);
  std::printf("%5d x %-5d backward BLOCK=%-5d groups=%d", rows, cols, full, groups);
  if (gpu)
    example::backward_on_gpu(p, Config{full, full, groups});
  else
    example::backward_in_interpreter(p, Config{full, full, groups});
  bool bwd = compare("dx", to_float(dx), rdx, 4e-3);
  bwd &= compare("dw", to_float(dw), rdw, 4e-3);
  bwd &= compare("db", to_float(db), rdb, 4e-3);
  std::printf("\n");
  return ok && bwd;
}

bool run_checks(const example::RunOptions &run) {
  std::vector<std::pair<int, int>> shapes = {{1, 1}, {37, 1000}, {128, 4099}};
  if (run.gpu)
    shapes.push_back({4096, 8192});
  bool ok = true;
  for (auto [rows, cols] : shapes)
    ok &= check(rows, cols, run.gpu);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  return example::run_example(argc, argv, {"kernels", {}, run_checks});
}
