// The L2 vector norm, ported from FlagGems (github.com/FlagOpen/FlagGems,
// src/flag_gems/ops/vector_norm.py at 532ff438: l2_norm_kernel, l2_norm_kernel_1,
// l2_norm_kernel_2; Apache License 2.0).
//
// l2_norm_kernel: the norm of each row of an [M, N] matrix (the reduced dimensions moved
// last by the host), BLOCK_M rows per program, squares summed lane by lane over N in
// BLOCK_N steps, then along the row. l2_norm_kernel_1 and _2: the norm of the whole tensor,
// one partial sum of squares per BLOCK_SIZE block, then the square root of their sum.
//
// Left out: the other orders (max_norm, min_norm, l0_norm, v_norm and l1_norm kernels);
// v_norm and l1_norm raise |x| to a run-time power with libdevice's pow, which tilec's
// vocabulary lacks. The pointer arguments the original rebinds to tiles get new names
// (X_ptrs), which C++ needs.
// Under tilec's promotion rule (a tile combined with a scalar keeps the tile's type) the row
// offsets `program_id (int64) * BLOCK_M + arange` are an int32 tile, where Triton's are int64.
#include <tilec/tl.h>

template <class T, int BLOCK_M, int BLOCK_N>
TILEC_KERNEL void l2_norm_kernel(const T *X, T *Out, int M, int N) {
  int64_t pid0 = tl::program_id(0);
  auto pid = pid0 * BLOCK_M + tl::expand_dims<1>(tl::arange<0, BLOCK_M>());
  auto X_ptrs = X + pid * N;
  auto Out_ptrs = Out + pid;
  auto row_mask = pid < M;

  auto _sum = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int off = 0; off < N; off += BLOCK_N) {
    auto cols = off + tl::expand_dims<0>(tl::arange<0, BLOCK_N>());
    auto col_mask = cols < N;
    auto mask = row_mask && col_mask;

    auto a = tl::cast<float>(tl::load(X_ptrs + cols, mask, 0.0f));
    _sum += a * a;
  }
  auto sum = tl::sum<1>(_sum);

  auto out = tl::expand_dims<1>(tl::sqrt(sum));
  tl::store(Out_ptrs, out, row_mask);
}

template <class T, int BLOCK_SIZE> TILEC_KERNEL void l2_norm_kernel_1(const T *X, T *Mid, int M) {
  int64_t pid = tl::program_id(0);
  auto offset = pid * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
  auto X_ptrs = X + offset;
  Mid = Mid + pid;
  auto mask = offset < M;

  auto x = tl::cast<float>(tl::load(X_ptrs, mask, 0.0f));
  float mid = tl::sum(x * x);
  tl::store(Mid, mid);
}

template <class T, int BLOCK_MID>
TILEC_KERNEL void l2_norm_kernel_2(const T *Mid, T *Out, int MID_SIZE) {
  auto offset = tl::arange<0, BLOCK_MID>();
  auto Mid_ptrs = Mid + offset;
  auto mask = offset < MID_SIZE;
  auto mid = tl::cast<float>(tl::load(Mid_ptrs, mask, 0.0f));
  float out = tl::sqrt(tl::sum(mid));
  tl::store(Out, out);
}
