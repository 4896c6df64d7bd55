// run_interpreter.cpp - the same kernel source compiled for the host and run by the
// interpreter, one program instance at a time, on host pointers.
#include "runners.h"

#include <tilec/interpret.h>

#include "vector_add.cpp"

#include "host_check.h"

namespace example {

void add_in_interpreter(const float *x, const float *y, float *out, int n, size_t out_len) {
  poison_host(out, out_len * sizeof(float));
  tilec::interpret::launch(add_kernel<kBlockF32>, tilec::Grid{(uint32_t)tilec::cdiv(n, kBlockF32)},
                           x, y, out, n);
}

void add_in_interpreter(const tl::half *x, const tl::half *y, tl::half *out, int n,
                        size_t out_len) {
  poison_host(out, out_len * sizeof(tl::half));
  tilec::interpret::launch(add_kernel_t<tl::half, kBlockF16>,
                           tilec::Grid{(uint32_t)tilec::cdiv(n, kBlockF16)}, x, y, out, n);
}

} // namespace example
