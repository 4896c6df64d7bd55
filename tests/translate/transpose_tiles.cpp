// A kernel whose tiles are contiguous in memory down their columns holds them transposed
// (transpose-tiles). column_sums keeps BLOCK_N columns of x [M, N] on its tile's first axis, as
// FlagGems' weight_norm_kernel_last does: row-major, each warp would read 32 rows of one
// column, N elements apart. Transposed, its tile is [BLOCK_M, BLOCK_N] with 16-byte runs along
// the rows, and its row sum is a reduction over dimension 0. row_sums is left as it is.
#include <tilec/tl.h>

// Column sums of x [M, N]: BLOCK_N columns per program held as the tile's first axis.
template <int BLOCK_N, int BLOCK_M>
TILEC_KERNEL void column_sums(const float *x, float *out, int M, int N) {
  auto cols = tl::program_id(0) * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto acc = tl::zeros<float, BLOCK_N, BLOCK_M>();
  for (int m = 0; m < M; m += BLOCK_M) {
    auto rows = m + tl::arange<0, BLOCK_M>();
    auto mask = tl::expand_dims<1>(cols < N) && tl::expand_dims<0>(rows < M);
    acc += tl::load(x + tl::expand_dims<0>(rows) * N + tl::expand_dims<1>(cols), mask, 0.0f);
  }
  tl::store(out + cols, tl::sum<1>(acc), cols < N);
}

// Row sums of x [M, N]: already contiguous along the tile's rows.
template <int BLOCK_M, int BLOCK_N>
TILEC_KERNEL void row_sums(const float *x, float *out, int M, int N) {
  auto rows = tl::program_id(0) * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto acc = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int n = 0; n < N; n += BLOCK_N) {
    auto cols = n + tl::arange<0, BLOCK_N>();
    auto mask = tl::expand_dims<1>(rows < M) && tl::expand_dims<0>(cols < N);
    acc += tl::load(x + tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols), mask, 0.0f);
  }
  tl::store(out + rows, tl::sum<1>(acc), rows < M);
}

// Column sums of one block of rows, through tl::trans: a trans (like a tl::dot, a reshape or a
// hint) names the tile's axes as written, so the kernel is left as it is, one element per
// access.
template <int BLOCK_N, int BLOCK_M>
TILEC_KERNEL void column_sums_trans(const float *x, float *out, int M, int N) {
  auto cols = tl::program_id(0) * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto rows = tl::arange<0, BLOCK_M>();
  auto mask = tl::expand_dims<1>(cols < N) && tl::expand_dims<0>(rows < M);
  auto block = tl::load(x + tl::expand_dims<0>(rows) * N + tl::expand_dims<1>(cols), mask, 0.0f);
  tl::store(out + cols, tl::sum<0>(tl::trans(block)), cols < N);
}

// IR-LABEL: kernel @column_sums<
// IR-NEXT:  tiles_transposed
// IR:       load {{.*}} : tile<float, BLOCK_M, BLOCK_N>
// IR:       reduce "sum" {{.*}} [0] : tile<float, BLOCK_N>
// IR-LABEL: kernel @row_sums
// IR-NOT:   tiles_transposed
// IR:       reduce "sum" {{.*}} [1] : tile<float, BLOCK_M>

// CU-LABEL: // column_sums, from transpose_tiles.cpp.
// CU:       // Rank-2 tiles are held transposed (transpose-tiles): the source's [M, N] tiles are
// CU-NEXT:  // [N, M] here, so that accesses run along their rows, as the memory does.
// CU:       using L0 = tilec::Blocked2D<BLOCK_M, BLOCK_N, THREADS, L0_RUN>;
// CU:       tilec::load_vec<
// CU:       tilec::reduce_axis<L0, 0>(
// CU-LABEL: // row_sums, from transpose_tiles.cpp.
// CU-NOT:   held transposed
// CU:       tilec::reduce_axis<L{{[0-9]}}, 1>(
// IR-LABEL: kernel @column_sums_trans<
// IR-NOT:   tiles_transposed
// IR:       load {{.*}} : tile<float, BLOCK_N, BLOCK_M>
