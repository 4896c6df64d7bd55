// runners.h - the two ways this example runs add_kernel: the GPU launcher (run_gpu.cpp)
// and the host interpreter (run_interpreter.cpp). They live in separate files because the
// launcher header and the kernel source both declare `add_kernel`.
#pragma once

#include <tilec/types.h>

#include <cstddef>
#include <string>

namespace example {

/// out[0..n) = x + y. `out` holds `out_len` >= n elements; the runners fill all of it with
/// 0xFF bytes (NaN) before the kernel runs, so lanes the kernel misses stay NaN and writes
/// past n are visible to the caller.
void add_on_gpu(const float *x, const float *y, float *out, int n, size_t out_len);
void add_on_gpu(const tl::half *x, const tl::half *y, tl::half *out, int n, size_t out_len);
void add_in_interpreter(const float *x, const float *y, float *out, int n, size_t out_len);
void add_in_interpreter(const tl::half *x, const tl::half *y, tl::half *out, int n, size_t out_len);

/// Median time of one launch on the GPU over a few repetitions (ms), for the printed GB/s.
double time_on_gpu_ms(bool half, int n);

/// Launch configurations this example uses (the AOT build specializes exactly these).
constexpr int kBlockF32 = 1024, kWarpsF32 = 4;
constexpr int kBlockF16 = 2048, kWarpsF16 = 8;

} // namespace example
