// runners.h - the two ways this example runs the layer norm kernels: the GPU launchers
// (run_gpu.cpp) and the host interpreter (run_interpreter.cpp). They live in separate files
// because the launcher header and the kernel source both declare the kernels.
#pragma once

#include <tilec/types.h>

#include <cstddef>

namespace example {

/// Host arrays of one [rows, cols] problem (dense rows). Inputs: x, w, b, dy. Outputs: y,
/// mean, rstd (forward), dx, dw, db (backward). The runners fill every output with 0xFF
/// bytes (NaN) before the kernels run, so elements the kernels miss stay NaN.
struct Problem {
  int rows, cols;
  float eps;
  const tl::half *x, *w, *b, *dy;
  tl::half *y, *dx, *dw, *db;
  float *mean, *rstd;
};

/// Launch configuration. `fwd_block` < cols makes the forward kernel loop over column
/// blocks; the backward kernels need bwd_block >= cols. `groups` programs share the rows in
/// the backward pass (and as many partial dw/db rows).
struct Config {
  int fwd_block, bwd_block, groups;
};

/// The next power of two >= cols (at least 32), and warps by BLOCK (fp16 rows).
int block_for(int cols);
int warps_for(int block);
/// Columns per program of the dw/db reduction, and its warps.
constexpr int kDwdbBlock = 64, kDwdbWarps = 2;
constexpr int kMaxBlock = 16384;
/// What the runners throw for any other BLOCK.
inline constexpr const char *kBadBlock = "layer_norm: unsupported BLOCK";

void forward_on_gpu(const Problem &p, const Config &c);
void backward_on_gpu(const Problem &p, const Config &c);
void forward_in_interpreter(const Problem &p, const Config &c);
void backward_in_interpreter(const Problem &p, const Config &c);

} // namespace example
