// Argmax along the middle axis of an [M, N, K] tensor, ported from FlagGems
// (github.com/FlagOpen/FlagGems, src/flag_gems/ops/argmax.py: argmax_kernel; Apache License
// 2.0). Each program takes BLOCK_M rows (of one k) and walks N in BLOCK_N chunks, keeping the
// running maximum and its index per row; a strictly greater chunk maximum replaces them, so
// the first index of the maximum wins. The original asks tl.max for the indices
// (return_indices=True); tilec spells that as tl::max and tl::argmax of the same tile, which
// the original names as its fallback. Padding reads -INFINITY where the original reads the
// type's lowest finite value (the same result for finite data); the running maximum is kept
// in float (the original's accumulation type for bf16 and float inputs; tl::max of a bf16 tile
// is float).
#include <tilec/tl.h>

template <class T, int BLOCK_M, int BLOCK_N>
TILEC_KERNEL void argmax_kernel(const T *inp, int64_t *out_index, int M, int N, int K) {
  // set offset
  int pid_m = tl::program_id(0);
  int pid_k = tl::program_id(1);
  auto m_offset = pid_m * BLOCK_M + tl::arange<0, BLOCK_M>();

  auto max_values = tl::full<float, BLOCK_M>(-INFINITY);
  auto argmax_values = tl::full<int64_t, BLOCK_M>(0);
  for (int start_n = 0; start_n < N; start_n += BLOCK_N) {
    auto n_offset = start_n + tl::arange<0, BLOCK_N>();
    auto offset = tl::expand_dims<1>(m_offset) * N * K + tl::expand_dims<0>(n_offset) * K + pid_k;
    auto mask = (tl::expand_dims<1>(m_offset) < M) & (tl::expand_dims<0>(n_offset) < N);
    auto inp_vals = tl::load(inp + offset, mask, -INFINITY);
    auto local_max = tl::max<1>(inp_vals);
    auto local_argmax = tl::argmax<1>(inp_vals);
    auto update = local_max > max_values;
    max_values = tl::where(update, local_max, max_values);
    argmax_values = tl::where(update, start_n + local_argmax, argmax_values);
  }

  auto offset_index = m_offset * K + pid_k;
  auto mask1 = m_offset < M;
  tl::store(out_index + offset_index, argmax_values, mask1);
}
