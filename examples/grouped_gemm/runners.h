// runners.h - the two ways this example runs the grouped GEMM kernel: the GPU launcher
// (run_gpu.cpp) and the host interpreter (run_interpreter.cpp). They live in separate files
// because the launcher header and the kernel source both declare the kernel.
#pragma once

#include <tilec/types.h>

#include <cstddef>
#include <cstdint>

namespace example {

/// Host arrays of one launch, laid out as the kernel reads them: group g's A, B and C start
/// offsets[3g + 0|1|2] elements into a, b and c; sizes[3g + 0|1|2] are its M, N, K and
/// lds[3g + 0|1|2] the row strides of A, B and C. `c` holds `c_len` elements; the runners
/// fill all of it with 0xFF bytes (NaN) first, so elements the kernel misses or writes by
/// mistake show.
struct Groups {
  const tl::half *a, *b;
  tl::half *c;
  size_t a_len, b_len, c_len;
  const int64_t *offsets;
  const int *sizes, *lds;
  int count;
};

/// The kernel's compile-time parameters and launch options. `align` (1 or 16) is what every
/// size, leading dimension and offset is promised to be a multiple of.
struct Config {
  int block_m, block_n, block_k, align, num_warps, num_stages;
  bool operator==(const Config &) const = default;
};

/// What the GPU runs: matmul's blocks, for any sizes and for sizes promised multiples of 16.
constexpr Config kGpuConfig{128, 128, 32, 1, 4, 4};
constexpr Config kGpuAlignedConfig{128, 128, 32, 16, 4, 4};
/// Small blocks, so that the interpreter's small groups still span several tiles.
constexpr Config kSmallConfig{32, 32, 16, 1, 4, 4};
constexpr Config kSmallAlignedConfig{32, 32, 16, 16, 4, 4};
/// What the runners throw for any other config.
inline constexpr const char *kBadConfig = "grouped_gemm: the runners instantiate the GPU and "
                                          "small configs only";

/// The persistent grid on the GPU: one program per SM.
unsigned gpu_programs();

/// Launches `programs` programs over all groups of g.
void grouped_gemm_on_gpu(const Groups &g, const Config &c, unsigned programs);
void grouped_gemm_in_interpreter(const Groups &g, const Config &c, unsigned programs);

/// Median time of one launch on the GPU (ms), with the groups uploaded from host.
double time_on_gpu_ms(const Groups &g, const Config &c, unsigned programs);

} // namespace example
