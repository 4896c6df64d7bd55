// tilec/grid.h - launch geometry shared by the interpreter and the GPU runtime.
// Header-only and dependency-free so host-only programs can use it.
#pragma once

#include <cstdint>

namespace tilec {

/// Number of program instances along each axis (Triton's grid).
struct Grid {
  uint32_t x = 1, y = 1, z = 1;
};

/// Ceiling division for sizing grids: cdiv(10, 4) == 3.
template <class A, class B> constexpr auto cdiv(A a, B b) { return (a + b - 1) / b; }

/// The smallest power of two >= n (1 for n <= 1), as triton.next_power_of_2: next_power_of_2(
/// 1000) == 1024. For sizing blocks in autotuning heuristics.
template <class I> constexpr I next_power_of_2(I n) {
  I p = 1;
  while (p < n)
    p = I(p * 2);
  return p;
}

/// The most elements a tile may have (as Triton's TRITON_MAX_TENSOR_NUMEL).
inline constexpr int64_t kMaxTileElems = int64_t(1) << 20;

/// Whether `n` can be a tile dimension: a power of two, at most kMaxTileElems. The launchers
/// tilec writes check the dimensions that depend on template parameters with it.
constexpr bool valid_tile_dim(int64_t n) {
  return n > 0 && n <= kMaxTileElems && (n & (n - 1)) == 0;
}

/// Per-launch options that are part of a kernel's specialization.
struct LaunchOptions {
  int num_warps = 4;  ///< warps per program instance
  int num_stages = 3; ///< software pipelining depth for loops that load and dot
};

} // namespace tilec
