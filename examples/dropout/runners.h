// runners.h - the two ways this example runs dropout_kernel: the GPU launcher (run_gpu.cpp)
// and the host interpreter (run_interpreter.cpp). They live in separate files because the
// launcher header and the kernel source both declare the kernel.
#pragma once

#include <cstddef>

namespace example {

/// out[0..n) = dropout(x, p, seed). `out` holds `out_len` >= n floats; the runners fill all of
/// it with 0xFF bytes (NaN) first, so missed elements and writes past n show.
void dropout_on_gpu(const float *x, float *out, int n, size_t out_len, float p, int seed);
void dropout_in_interpreter(const float *x, float *out, int n, size_t out_len, float p, int seed);

constexpr int kBlock = 1024, kWarps = 4;

} // namespace example
