// tl::swizzle2d (Triton's grouped program order) is written out as scalar arithmetic, one
// named step a line; the pair is taken apart by a structured binding or read as .first and
// .second. Everything computes in the arguments' common type.
#include <tilec/tl.h>

template <int BLOCK_M, int BLOCK_N, int GROUP_M>
TILEC_KERNEL void grouped_copy(const float *x, float *out, int M, int N) {
  int pid = tl::program_id(0);
  int num_pid_m = tl::cdiv(M, BLOCK_M);
  int num_pid_n = tl::cdiv(N, BLOCK_N);
  auto [pid_m, pid_n] =
      tl::swizzle2d(pid / num_pid_n, pid % num_pid_n, num_pid_m, num_pid_n, GROUP_M);
  auto rows = pid_m * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto cols = pid_n * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto offs = tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols);
  auto mask = (tl::expand_dims<1>(rows) < M) && (tl::expand_dims<0>(cols) < N);
  tl::store(out + offs, tl::load(x + offs, mask), mask);
}

TILEC_KERNEL void wide_pair(int64_t *out, int64_t size_i, int size_j, int size_g) {
  auto p = tl::swizzle2d(tl::program_id(0), tl::program_id(1), size_i, size_j, size_g);
  tl::store(out + p.first * size_j + p.second, p.first);
}

// IR-LABEL: kernel @grouped_copy<int BLOCK_M, int BLOCK_N, int GROUP_M>
// IR:       %[[PID:[0-9]+]]:pid = program_id axis=0 : int
// IR:       %[[M:[0-9]+]]:num_pid_m = binary "cdiv"
// IR:       %[[N:[0-9]+]]:num_pid_n = binary "cdiv"
// IR:       %[[I:[0-9]+]] = binary "/" %[[PID]]:pid, %[[N]]:num_pid_n : int
// IR-NEXT:  %[[J:[0-9]+]] = binary "%" %[[PID]]:pid, %[[N]]:num_pid_n : int
// IR-NEXT:  %[[G:[0-9]+]] = constant [GROUP_M] : int
// IR-NEXT:  %[[T:[0-9]+]] = binary "*" %[[I]], %[[N]]:num_pid_n : int
// IR-NEXT:  %[[IJ:[0-9]+]]:swizzle_ij = binary "+" %[[T]], %[[J]] : int
// IR-NEXT:  %[[GS:[0-9]+]]:swizzle_group_size = binary "*" %[[G]], %[[N]]:num_pid_n : int
// IR-NEXT:  %[[GID:[0-9]+]] = binary "/" %[[IJ]]:swizzle_ij, %[[GS]]:swizzle_group_size : int
// IR-NEXT:  %[[FR:[0-9]+]]:swizzle_first_row = binary "*" %[[GID]], %[[G]] : int
// IR-NEXT:  %[[LEFT:[0-9]+]] = binary "-" %[[M]]:num_pid_m, %[[FR]]:swizzle_first_row : int
// IR-NEXT:  %[[R:[0-9]+]]:swizzle_rows = binary "minimum" %[[LEFT]], %[[G]] : int
// IR-NEXT:  %[[IN:[0-9]+]]:swizzle_in_group = binary "%" %[[IJ]]:swizzle_ij, %[[GS]]:swizzle_group_size : int
// IR-NEXT:  %[[ROW:[0-9]+]] = binary "%" %[[IN]]:swizzle_in_group, %[[R]]:swizzle_rows : int
// IR-NEXT:  {{.*}}:pid_m = binary "+" %[[FR]]:swizzle_first_row, %[[ROW]] : int
// IR-NEXT:  {{.*}}:pid_n = binary "/" %[[IN]]:swizzle_in_group, %[[R]]:swizzle_rows : int
// IR-LABEL: kernel @wide_pair
// IR:       = cast %{{[0-9]+}} : int64_t
// IR:       :p_first = binary "+" {{.*}} : int64_t
// IR:       :p_second = binary "/" {{.*}} : int64_t

// One comment for the call, then one line a step; the bindings name the results.
// CU-LABEL: grouped_copy(
// CU:       // swizzle2d.cpp:12: tl::swizzle2d(pid / num_pid_n, pid % num_pid_n, num_pid_m, num_pid_n, GROUP_M)
// CU-NEXT:  const int swizzle_ij = (((pid / num_pid_n) * num_pid_n) + (pid % num_pid_n));
// CU-NEXT:  const int swizzle_group_size = (GROUP_M * num_pid_n);
// CU-NEXT:  const int swizzle_first_row = ((swizzle_ij / swizzle_group_size) * GROUP_M);
// CU-NEXT:  const int swizzle_rows = tilec::minimum((num_pid_m - swizzle_first_row), GROUP_M);
// CU-NEXT:  const int swizzle_in_group = (swizzle_ij % swizzle_group_size);
// CU-NEXT:  const int pid_m = (swizzle_first_row + (swizzle_in_group % swizzle_rows));
// CU-NEXT:  const int pid_n = (swizzle_in_group / swizzle_rows);
// CU-NEXT:  // swizzle2d.cpp:13:
// The sizes are int64_t, so the int arguments convert first; a local holding the pair gives
// p_first and p_second.
// CU-LABEL: wide_pair(
// CU:       // swizzle2d.cpp:21: tl::swizzle2d(tl::program_id(0), tl::program_id(1), size_i, size_j, size_g)
// CU-NEXT:  const int64_t [[SJ:t[0-9]+]] = tilec::cast<int64_t>(size_j);
// CU-NEXT:  const int64_t [[SG:t[0-9]+]] = tilec::cast<int64_t>(size_g);
// CU-NEXT:  const int64_t swizzle_ij = ((tilec::cast<int64_t>({{t[0-9]+}}) * [[SJ]]) + tilec::cast<int64_t>({{t[0-9]+}}));
// CU-NEXT:  const int64_t swizzle_group_size = ([[SG]] * [[SJ]]);
// CU-NEXT:  const int64_t swizzle_first_row = ((swizzle_ij / swizzle_group_size) * [[SG]]);
// CU-NEXT:  const int64_t swizzle_rows = tilec::minimum((size_i - swizzle_first_row), [[SG]]);
// CU-NEXT:  const int64_t swizzle_in_group = (swizzle_ij % swizzle_group_size);
// CU-NEXT:  const int64_t p_first = (swizzle_first_row + (swizzle_in_group % swizzle_rows));
// CU-NEXT:  const int64_t p_second = (swizzle_in_group / swizzle_rows);
