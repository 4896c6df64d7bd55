// run_interpreter.cpp - the same kernel source compiled for the host and run by the
// interpreter, one program instance at a time, on host pointers.
#include "runners.h"

#include <tilec/interpret.h>

#include "dropout.cpp"

#include "host_check.h"

namespace example {

void dropout_in_interpreter(const float *x, float *out, int n, size_t out_len, float p, int seed) {
  poison_host(out, out_len * sizeof(float));
  tilec::interpret::launch(dropout_kernel<kBlock>, tilec::Grid{(uint32_t)tilec::cdiv(n, kBlock)}, x,
                           out, n, p, seed);
}

} // namespace example
