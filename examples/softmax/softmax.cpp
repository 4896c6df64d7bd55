// Row-wise softmax of an fp32 matrix (Triton tutorial 02): each row is loaded once, held in
// registers as one BLOCK-wide tile (BLOCK >= n_cols), and written once.
#include <tilec/tl.h>

// One row per program instance.
template <int BLOCK>
TILEC_KERNEL void softmax_kernel(float *out, const float *in, int in_stride, int out_stride,
                                 int n_cols) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  // -inf in the padding lanes: they do not change the max and exp() turns them into 0.
  auto x = tl::load(in + row * in_stride + cols, mask, -INFINITY);
  auto num = tl::exp(x - tl::max(x)); // subtracting the max keeps exp() finite
  // One division per row, then a multiply per element (within 2 ulp of dividing each).
  float inv = 1.0f / tl::sum(num);
  tl::store(out + row * out_stride + cols, num * inv, mask);
}

// Persistent variant: a fixed grid (a few programs per SM) walks the rows, so the launch
// does not depend on n_rows and each program instance is set up once.
template <int BLOCK>
TILEC_KERNEL void softmax_persistent(float *out, const float *in, int in_stride, int out_stride,
                                     int n_rows, int n_cols) {
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  for (int row = tl::program_id(0); row < n_rows; row += tl::num_programs(0)) {
    auto x = tl::load(in + row * in_stride + cols, mask, -INFINITY);
    auto num = tl::exp(x - tl::max(x));
    float inv = 1.0f / tl::sum(num);
    tl::store(out + row * out_stride + cols, num * inv, mask);
  }
}

// Autotuning (Triton's @triton.heuristics and @triton.autotune): BLOCK follows from the row
// length, as the tutorial computes it; num_warps is timed for each row length. The hooks are
// host functions, copied into the launcher header.

// The row length rounded up to a power of two, at least one warp's worth.
inline int block_for_row(int n_cols) { return tilec::next_power_of_2(n_cols < 32 ? 32 : n_cols); }

// Keeps the num_warps that give each thread from 1 to 64 values of the row.
inline bool fits_row(int BLOCK, int num_warps) {
  return 32 * num_warps <= BLOCK && BLOCK <= 64 * 32 * num_warps;
}

TILEC_AUTOTUNE(softmax_kernel) = {
    .configs = {{.num_warps = 1},
                {.num_warps = 2},
                {.num_warps = 4},
                {.num_warps = 8},
                {.num_warps = 16},
                {.num_warps = 32}},
    .key = {"n_cols"},
    .prune = fits_row,
    .heuristics = {{"BLOCK", block_for_row}},
};

TILEC_AUTOTUNE(softmax_persistent) = {
    .configs = {{.num_warps = 1},
                {.num_warps = 2},
                {.num_warps = 4},
                {.num_warps = 8},
                {.num_warps = 16},
                {.num_warps = 32}},
    .key = {"n_cols"},
    .prune = fits_row,
    .heuristics = {{"BLOCK", block_for_row}},
};
