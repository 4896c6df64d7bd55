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

// Loops over blocks whose masks split-ragged-loops folds away in every block but the ragged
// last ones, in two spellings: offsets from the block number (`b * BLOCK + arange < n`), and
// a run-time shift with the compare mirrored (`last >= i + shift + arange`) feeding a load, a
// where() and a store.
template <int BLOCK>
TILEC_KERNEL void ragged_blocks(const float *x, float *y, float *sums, int n, int shift) {
  auto acc = tl::zeros<float, BLOCK>();
  for (int b = 0; b < tl::cdiv(n, BLOCK); ++b) {
    auto offs = b * BLOCK + tl::arange<0, BLOCK>();
    acc += tl::load(x + offs, offs < n, 0.0f);
  }
  tl::store(sums + tl::arange<0, BLOCK>(), acc);
  int last = n - 1;
  for (int i = 0; i < n - shift; i += BLOCK) {
    auto src = i + shift + tl::arange<0, BLOCK>();
    auto keep = last >= src;
    auto v = tl::where(keep, tl::load(x + src, keep, 0.0f) * 2.0f, -1.0f);
    tl::store(y + (src - shift), v, keep);
  }
}

// A load and a store over the middle axis of [M, N, K] with the program's k added last (as
// FlagGems' reductions spell it): unit-stride-accesses copies both for K == 1 with k a
// multiple of the elements in 16 bytes (16-byte runs), and leaves every other case to the
// general copy. out is [K programs, M, N].
template <int BM, int BN>
TILEC_KERNEL void middle_axis_copy(const tl::bfloat16 *x, tl::bfloat16 *out, int M, int N, int K) {
  int k = tl::program_id(1);
  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();
  for (int n0 = 0; n0 < N; n0 += BN) {
    auto cols = n0 + tl::arange<0, BN>();
    auto mask = (tl::expand_dims<1>(rows) < M) & (tl::expand_dims<0>(cols) < N);
    auto src = tl::expand_dims<1>(rows) * N * K + tl::expand_dims<0>(cols) * K + k;
    auto v = tl::load(x + src, mask, -1.0f);
    tl::store(out + (k * M + tl::expand_dims<1>(rows)) * N * K + tl::expand_dims<0>(cols) * K + k,
              v * 2.0f, mask);
  }
}
