// Four small kernels written the way a Triton user writes them, each next to its plain Triton
// version in bench/peers/corpus.py (same algorithm, same blocks and warps): the shapes the
// first reports of slow spellings named. Idioms from Triton's documentation and tutorials
// (triton-lang.org, MIT licence): tl.cumsum along a tile axis, tl.atomic_add of a reduced
// tile, tl.trans of a loaded block, an elementwise epilogue over a 2-D grid.
#include <tilec/tl.h>

// Inclusive prefix sums of each row, ROWS rows per program: y[r, :] = cumsum(x[r, :]).
template <class T, int ROWS, int BLOCK>
TILEC_KERNEL void row_cumsum(const T *x, T *y, int n_rows, int n_cols, int stride) {
  auto rows = tl::program_id(0) * ROWS + tl::arange<0, ROWS>();
  auto cols = tl::arange<0, BLOCK>();
  auto offs = tl::expand_dims<1>(rows) * stride + tl::expand_dims<0>(cols);
  auto mask = (tl::expand_dims<1>(rows) < n_rows) & (tl::expand_dims<0>(cols) < n_cols);
  auto v = tl::load(x + offs, mask, 0);
  tl::store(y + offs, tl::cumsum<1>(v), mask);
}

// Column sums of an [M, N] matrix: each program sums a BLOCK_M x BLOCK_N block over its rows
// and adds the partial sums to out[N] with atomics (out zeroed by the caller).
template <int BLOCK_M, int BLOCK_N>
TILEC_KERNEL void column_sum_atomic(const float *x, float *out, int M, int N) {
  auto rows = tl::program_id(0) * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto cols = tl::program_id(1) * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto mask = (tl::expand_dims<1>(rows) < M) & (tl::expand_dims<0>(cols) < N);
  auto v = tl::load(x + tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols), mask, 0.0f);
  tl::atomic_add(out + cols, tl::sum<0>(v), cols < N);
}

// y = x^T for a row-major [M, N] x: each program loads a BLOCK_M x BLOCK_N block and stores
// its transpose at the mirrored place of the row-major [N, M] y.
template <class T, int BLOCK_M, int BLOCK_N>
TILEC_KERNEL void transpose(const T *x, T *y, int M, int N) {
  auto rows = tl::program_id(0) * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto cols = tl::program_id(1) * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto r = tl::expand_dims<1>(rows);
  auto c = tl::expand_dims<0>(cols);
  auto block = tl::load(x + r * N + c, (r < M) & (c < N));
  auto rt = tl::expand_dims<0>(rows); // [1, BM]
  auto ct = tl::expand_dims<1>(cols); // [BN, 1]
  tl::store(y + ct * M + rt, tl::trans(block), (ct < N) & (rt < M));
}

// y = gelu_tanh(x + bias) over an [M, N] half matrix, bias[N] broadcast down the rows; the
// math in float, as a user of half tensors writes it.
template <int BLOCK_M, int BLOCK_N>
TILEC_KERNEL void bias_gelu(const tl::half *x, const tl::half *bias, tl::half *y, int M, int N) {
  auto rows = tl::program_id(0) * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto cols = tl::program_id(1) * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto r = tl::expand_dims<1>(rows);
  auto c = tl::expand_dims<0>(cols);
  auto mask = (r < M) & (c < N);
  auto v = tl::cast<float>(tl::load(x + r * N + c, mask, 0)) +
           tl::cast<float>(tl::load(bias + c, c < N, 0));
  const float k = 0.7978845608028654f; // sqrt(2 / pi)
  auto g = 0.5f * v * (1.0f + tl::tanh(k * (v + 0.044715f * v * v * v)));
  tl::store(y + r * N + c, tl::cast<tl::half>(g), mask);
}
