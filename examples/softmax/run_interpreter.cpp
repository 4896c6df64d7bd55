// run_interpreter.cpp - the same kernel source compiled for the host and run by the
// interpreter, one program instance at a time, on host pointers.
#include "runners.h"

#include <tilec/interpret.h>

#include "softmax.cpp"

#include "block_dispatch.h"
#include "host_check.h"

#include <algorithm>

namespace example {

void softmax_in_interpreter(Variant v, const float *in, float *out, size_t out_len, Shape s) {
  poison_host(out, out_len * sizeof(float));
  with_block<kMaxBlock>(block_for(s.cols), kRowTooWide, [&](auto blk) {
    constexpr int B = decltype(blk)::value;
    if (v == Variant::row_per_program) {
      tilec::interpret::launch(softmax_kernel<B>, tilec::Grid{(uint32_t)s.rows}, out, in,
                               s.in_stride, s.out_stride, s.cols);
    } else {
      // Fewer programs than rows, so that each one takes several turns of its loop.
      uint32_t programs = (uint32_t)std::min(s.rows, 7);
      tilec::interpret::launch(softmax_persistent<B>, tilec::Grid{programs}, out, in, s.in_stride,
                               s.out_stride, s.rows, s.cols);
    }
  });
}

} // namespace example
