// Layout assignment: decides how each tile is spread over a program instance's threads and
// how wide each global access is.
//
// Every rank-1 shape gets one blocked layout (templates/tilec/device/layout.cuh): each thread
// holds runs of VEC consecutive elements. VEC is the widest 16-byte vector any access of that
// shape can use. Each load/store then gets its access width, the largest power of two that
// divides VEC, fits 16 bytes, stays inside a contiguous run and respects the address
// alignment from AxisInfo.
//
//   before:  %9 = load %8:ptrs, %7:mask : tile<float, BLOCK>
//   after:   %9 = load ... #0  {width=cmin(L0::VEC, cmin(4, gcd(...) / 4)) ...}
#pragma once

#include "ir/IR.h"

namespace tilec {

/// The C++ name of layout `i` in generated code ("L0").
std::string layoutName(int i);

void runLayoutAssignment(Kernel& k);

} // namespace tilec
