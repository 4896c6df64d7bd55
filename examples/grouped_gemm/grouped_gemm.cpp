// Grouped GEMM (Triton tutorial 08): G independent products C_g = A_g @ B_g of different
// sizes in one persistent launch. A fixed number of programs (the SM count on the GPU) walk
// the BLOCK_M x BLOCK_N tiles of every group in turn: program p takes tiles p, p + programs,
// p + 2 programs, ... of the concatenated tile list. T is half or bfloat16; accumulation is
// in float.
//
// A tilec kernel cannot load a pointer from memory, so the groups live in one buffer per
// operand: group g's A, B and C start offsets[3g + 0|1|2] elements after a, b and c, its M,
// N and K are sizes[3g + 0|1|2], and the row strides of its A, B and C (row-major) are
// lds[3g + 0|1|2].
//
// ALIGN (1 or 16) promises that every size, leading dimension and offset is a multiple of it
// (Triton's tutorial assumes 16): with 16 the loads and stores can move 16 bytes at a time,
// which the translator cannot prove for values read from memory. The interpreter checks it.
#include <tilec/tl.h>

// One of a group's sizes, leading dimensions or offsets, with what ALIGN promises about it.
template <int ALIGN, class I> TILEC_FUNC I load_dim(const I *p) {
  I v = tl::load(p);
  tl::assume(v % ALIGN == 0);
  return tl::multiple_of<ALIGN>(v);
}

template <int BLOCK_M, int BLOCK_N, int BLOCK_K, int ALIGN, class T>
TILEC_KERNEL void grouped_gemm(const T *a, const T *b, T *c, const int64_t *offsets,
                               const int *sizes, const int *lds, int group_count) {
  int tile_idx = tl::program_id(0);
  int programs = tl::num_programs(0);
  int last_problem_end = 0; // tiles of the groups before g
  for (int g = 0; g < group_count; ++g) {
    int gm = load_dim<ALIGN>(sizes + 3 * g);
    int gn = load_dim<ALIGN>(sizes + 3 * g + 1);
    int gk = load_dim<ALIGN>(sizes + 3 * g + 2);
    int num_n_tiles = tl::cdiv(gn, BLOCK_N);
    int num_tiles = tl::cdiv(gm, BLOCK_M) * num_n_tiles;
    // This program's tiles that fall in group g (none when gm or gn is 0).
    while (tile_idx >= last_problem_end && tile_idx < last_problem_end + num_tiles) {
      const T *a_g = a + load_dim<ALIGN>(offsets + 3 * g);
      const T *b_g = b + load_dim<ALIGN>(offsets + 3 * g + 1);
      T *c_g = c + load_dim<ALIGN>(offsets + 3 * g + 2);
      int lda = load_dim<ALIGN>(lds + 3 * g);
      int ldb = load_dim<ALIGN>(lds + 3 * g + 1);
      int ldc = load_dim<ALIGN>(lds + 3 * g + 2);
      int tile_in_gemm = tile_idx - last_problem_end;
      int tile_m = tile_in_gemm / num_n_tiles;
      int tile_n = tile_in_gemm % num_n_tiles;

      // As in matmul.cpp: rows of A and columns of B wrap around at the edges (their results
      // are not stored), so only the K tail is masked; the loads feed tl::dot directly, so the
      // translator pipelines the loop.
      auto offs_am = (tile_m * BLOCK_M + tl::arange<0, BLOCK_M>()) % gm;
      auto offs_bn = (tile_n * BLOCK_N + tl::arange<0, BLOCK_N>()) % gn;
      auto offs_k = tl::arange<0, BLOCK_K>();
      auto a_ptrs = a_g + tl::expand_dims<1>(offs_am) * lda + tl::expand_dims<0>(offs_k);
      auto b_ptrs = b_g + tl::expand_dims<1>(offs_k) * ldb + tl::expand_dims<0>(offs_bn);
      auto acc = tl::zeros<float, BLOCK_M, BLOCK_N>();
      for (int k = 0; k < tl::cdiv(gk, BLOCK_K); ++k) {
        auto a_tile = tl::load(a_ptrs, tl::expand_dims<0>(offs_k) < gk - k * BLOCK_K, 0.0f);
        auto b_tile = tl::load(b_ptrs, tl::expand_dims<1>(offs_k) < gk - k * BLOCK_K, 0.0f);
        acc = tl::dot(a_tile, b_tile, acc);
        a_ptrs += BLOCK_K;
        b_ptrs += BLOCK_K * ldb;
      }

      auto offs_cm = tile_m * BLOCK_M + tl::arange<0, BLOCK_M>();
      auto offs_cn = tile_n * BLOCK_N + tl::arange<0, BLOCK_N>();
      auto c_ptrs = c_g + tl::expand_dims<1>(offs_cm) * ldc + tl::expand_dims<0>(offs_cn);
      auto c_mask = (tl::expand_dims<1>(offs_cm) < gm) && (tl::expand_dims<0>(offs_cn) < gn);
      tl::store(c_ptrs, tl::cast<T>(acc), c_mask);
      tile_idx += programs;
    }
    last_problem_end += num_tiles;
  }
}
