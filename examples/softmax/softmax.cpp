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
