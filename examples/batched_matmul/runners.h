// runners.h - the two ways this example runs the batched matmul kernel: the GPU launcher
// (run_gpu.cpp) and the host interpreter (run_interpreter.cpp). They live in separate files
// because the launcher header and the kernel source both declare the kernel.
#pragma once

#include <tilec/types.h>

#include <cstddef>
#include <cstdint>

namespace example {

/// C[b] [M, N] = A[b] [M, K] @ B[b] [K, N] for b < batch (at most 65535: grid axis 1). Row i
/// of A[b] starts at a + b * stride_a + i * lda, and likewise for B and C. A batch stride of
/// 0 shares one matrix across the batch.
struct Problem {
  int batch, M, N, K, lda, ldb, ldc;
  int64_t stride_a, stride_b, stride_c;
};

/// Host arrays of one problem. `c` holds `c_len` elements; the runners fill all of it with
/// 0xFF bytes (NaN) first, so elements the kernel misses or writes by mistake show.
struct Matrices {
  const tl::half *a, *b;
  tl::half *c;
  size_t a_len, b_len, c_len;
};

/// The kernel's compile-time parameters and launch options.
struct Config {
  int block_m, block_n, block_k, group_m, num_warps, num_stages;
  bool operator==(const Config &) const = default;
};

/// What the GPU runs: matmul's configuration.
constexpr Config kGpuConfig{128, 128, 32, 8, 4, 4};
/// Small blocks, so that the interpreter's small matrices still span several programs and
/// groups of GROUP_M rows.
constexpr Config kSmallConfig{32, 32, 16, 2, 4, 4};
/// What the runners throw for any other config.
inline constexpr const char *kBadConfig = "batched_matmul: the runners instantiate kGpuConfig "
                                          "and kSmallConfig only";

/// Programs along grid axis 0: one per BLOCK_M x BLOCK_N tile of one C[b].
unsigned programs_for(const Problem &p, const Config &c);

void batched_matmul_on_gpu(const Problem &p, const Matrices &m, const Config &c);
void batched_matmul_in_interpreter(const Problem &p, const Matrices &m, const Config &c);

/// Median time of one launch on the GPU (ms), with a and b uploaded from host.
double time_on_gpu_ms(const Problem &p, const Matrices &m, const Config &c);

} // namespace example
