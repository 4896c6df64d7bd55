// block_dispatch.h - turns a run-time BLOCK (a power of two) into the compile-time template
// argument that a kernel or its launcher needs, for the GPU and the interpreter runners alike.
#pragma once

#include <stdexcept>
#include <type_traits>

namespace example {

/// Calls f(std::integral_constant<int, B>{}) for the B in {32, 64, ..., MaxBlock} equal to
/// block; throws std::invalid_argument(error) for any other block.
template <int MaxBlock, int B = 32, class F> void with_block(int block, const char *error, F &&f) {
  if constexpr (B > MaxBlock)
    throw std::invalid_argument(error);
  else if (block == B)
    f(std::integral_constant<int, B>{});
  else
    with_block<MaxBlock, B * 2>(block, error, f);
}

} // namespace example
