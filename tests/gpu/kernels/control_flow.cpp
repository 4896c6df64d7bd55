// A kernel that carries an accumulator tile through a run-time loop, returns early from some
// program instances, carries a scalar through an if, and unrolls a static loop.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void row_partial_sums(const float *x, float *out, int rows, int cols) {
  int row = tl::program_id(0);
  if (row >= rows)
    return;
  auto acc = tl::zeros<float, BLOCK>();
  for (int start = 0; start < cols; start += BLOCK) {
    auto offs = start + tl::arange<0, BLOCK>();
    acc = acc + tl::load(x + row * cols + offs, offs < cols, 0.0f);
  }
  float bias = 1.0f;
  if (cols > 100)
    bias = 2.0f;
  for (int k : tl::static_range<0, 2>())
    acc += bias;
  tl::store(out + row * BLOCK + tl::arange<0, BLOCK>(), acc);
}
