// runners.h - the two ways this example runs the matmul kernel: the GPU launcher
// (run_gpu.cpp) and the host interpreter (run_interpreter.cpp). They live in separate files
// because the launcher header and the kernel source both declare the kernel.
#pragma once

#include <tilec/types.h>

#include <cstddef>

namespace example {

/// C [M, N] = act(A [M, K] @ B [K, N]); row i of A starts at a + i * lda, of B at
/// b + i * ldb, of C at c + i * ldc.
struct Problem {
  int M, N, K, lda, ldb, ldc;
};

/// Host arrays of one problem. `c` holds `c_len` elements; the runners fill all of it with
/// 0xFF bytes (NaN) first, so elements the kernel misses or writes by mistake show.
template <class T> struct Matrices {
  const T *a, *b;
  T *c;
  size_t a_len, b_len, c_len;
};

/// The kernel's compile-time parameters and launch options.
struct Config {
  int block_m, block_n, block_k, group_m, num_warps, num_stages;
  bool operator==(const Config &) const = default;
};

/// What the GPU runs: the config that TILEC_AUTOTUNE (matmul.cpp) chooses for each problem.
constexpr Config kAutotuned{0, 0, 0, 0, 0, 0};
/// One of the CUDA configs that Triton's tutorial 03 autotunes over (the interpreter runs it;
/// the GPU runners take it too).
constexpr Config kGpuConfig{128, 128, 32, 8, 4, 4};
/// Small blocks, so that the interpreter's small problems still span several programs and
/// groups of GROUP_M rows.
constexpr Config kSmallConfig{32, 32, 16, 2, 4, 4};
/// What the runners throw for any other config.
inline constexpr const char *kBadConfig = "matmul: the runners take kAutotuned (GPU), "
                                          "kGpuConfig and kSmallConfig (interpreter) only";

/// Programs of one launch: one per BLOCK_M x BLOCK_N tile of C (of a fixed config).
unsigned programs_for(const Problem &p, const Config &c);

template <class T>
void matmul_on_gpu(const Problem &p, const Matrices<T> &m, const Config &c, bool leaky_relu);
template <class T>
void matmul_in_interpreter(const Problem &p, const Matrices<T> &m, const Config &c,
                           bool leaky_relu);

/// Median time of one launch on the GPU (ms), with a and b uploaded from host.
template <class T>
double time_on_gpu_ms(const Problem &p, const Matrices<T> &m, const Config &c, bool leaky_relu);

} // namespace example
