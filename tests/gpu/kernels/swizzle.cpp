// tl::swizzle2d (Triton's grouped program order): each program writes the (row, column) its
// number is sent to, out[2 * k] and out[2 * k + 1] for row-major number k. The interpreter
// test checks these kernels against a plain enumeration of the groups; the GPU test checks
// the GPU against the interpreter.
#include <tilec/tl.h>

// A 1-D grid of size_i * size_j programs, as in Triton's matmul tutorial; a compile-time
// group size, the pair taken apart by a structured binding.
template <int GROUP> TILEC_KERNEL void grouped_order(int *out, int size_i, int size_j) {
  int pid = tl::program_id(0);
  auto [row, col] = tl::swizzle2d(pid / size_j, pid % size_j, size_i, size_j, GROUP);
  tl::store(out + 2 * pid, row);
  tl::store(out + 2 * pid + 1, col);
}

// A 2-D grid read straight from the program ids, a run-time group size, the pair kept whole.
TILEC_KERNEL void grouped_order_2d(int *out, int size_g) {
  int size_j = tl::num_programs(1);
  auto p = tl::swizzle2d(tl::program_id(0), tl::program_id(1), tl::num_programs(0), size_j, size_g);
  int k = tl::program_id(0) * size_j + tl::program_id(1);
  tl::store(out + 2 * k + tl::arange<0, 2>(), tl::join(p.first, p.second));
}
