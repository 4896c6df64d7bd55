// run_interpreter.cpp - the same kernel source compiled for the host and run by the
// interpreter, one program instance at a time, on host pointers.
#include "runners.h"

#include <tilec/interpret.h>

#include "softmax.cpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace example {
namespace {

template <int BLOCK> void run(Variant v, const float *in, float *out, Shape s) {
  if (v == Variant::row_per_program) {
    tilec::interpret::launch(softmax_kernel<BLOCK>, tilec::Grid{(uint32_t)s.rows}, out, in,
                             s.in_stride, s.out_stride, s.cols);
  } else {
    // Fewer programs than rows, so that each one takes several turns of its loop.
    uint32_t programs = (uint32_t)std::min(s.rows, 7);
    tilec::interpret::launch(softmax_persistent<BLOCK>, tilec::Grid{programs}, out, in, s.in_stride,
                             s.out_stride, s.rows, s.cols);
  }
}

template <int BLOCK> void dispatch(int block, Variant v, const float *in, float *out, Shape s) {
  if constexpr (BLOCK > kMaxBlock)
    throw std::invalid_argument("softmax: row too wide");
  else if (block == BLOCK)
    run<BLOCK>(v, in, out, s);
  else
    dispatch<BLOCK * 2>(block, v, in, out, s);
}

} // namespace

void softmax_in_interpreter(Variant v, const float *in, float *out, size_t out_len, Shape s) {
  std::memset(out, 0xFF, out_len * sizeof(float));
  dispatch<32>(block_for(s.cols), v, in, out, s);
}

} // namespace example
