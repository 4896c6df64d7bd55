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

/// Per-launch options that are part of a kernel's specialization.
struct LaunchOptions {
  int num_warps = 4;  ///< warps per program instance
  int num_stages = 3; ///< software pipelining depth for loops that load and dot
};

} // namespace tilec
