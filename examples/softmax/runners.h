// runners.h - the two ways this example runs the softmax kernels: the GPU launchers
// (run_gpu.cpp) and the host interpreter (run_interpreter.cpp). They live in separate files
// because the launcher header and the kernel source both declare the kernels.
#pragma once

#include <cstddef>

namespace example {

enum class Variant { row_per_program, persistent };

/// One [rows, cols] problem. Row i of the input starts at in + i * in_stride, of the output
/// at out + i * out_stride (strides >= cols).
struct Shape {
  int rows, cols, in_stride, out_stride;
};

/// Widest row the kernels take: BLOCK = the next power of two >= cols, at most this.
constexpr int kMaxBlock = 32768;
/// What the runners throw for a wider row.
inline constexpr const char *kRowTooWide = "softmax: row too wide";

/// Softmax of every row of `in` into `out`. `out` holds `out_len` floats; the runners fill all
/// of it with 0xFF bytes (NaN) first, so elements the kernel misses or writes by mistake show.
void softmax_on_gpu(Variant v, const float *in, size_t in_len, float *out, size_t out_len, Shape s);
void softmax_in_interpreter(Variant v, const float *in, float *out, size_t out_len, Shape s);

/// Median time of one launch on the GPU (ms), dense rows, for the printed GB/s.
double time_on_gpu_ms(Variant v, int rows, int cols);

/// BLOCK for a row width (what the interpreter runs and the printed lines show; on the GPU
/// the TILEC_AUTOTUNE heuristic of softmax.cpp computes the same).
int block_for(int cols);

} // namespace example
