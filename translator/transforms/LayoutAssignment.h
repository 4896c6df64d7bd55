// Layout assignment: decides how each tile is spread over a program instance's threads and
// how wide each global access is.
//
// Values that an elementwise op, a load or a store combines must share a layout, so they are
// grouped (union-find). Each group then gets:
//   - a blocked layout for its shape if it holds rank-2 or rank-3 tiles (Blocked2D,
//     Blocked3D) — the anchors; with rank-3 tiles, their slices are settled before rank-2
//     anchors, so that a reduced or expanded rank-2 tile keeps the slice layout;
//   - the slice of a blocked layout P along dimension d if it holds the result of reducing
//     dimension d of a P tile, or a [M, 1] / [1, N] tile that broadcasts into P (and, through
//     expand_dims, the rank-1 tile it came from): broadcasting back is then a register read
//     (a rank-3 tile broadcasts one axis at a time, each step a slice of the next);
//   - otherwise a rank-1 blocked layout (Blocked1D) for its shape.
// A blocked layout's run length VEC is the widest 16-byte vector its loads and stores can use.
// Each load/store then gets its access width: the largest power of two that divides VEC, fits
// 16 bytes, stays inside a contiguous run and respects the alignment AxisInfo proved.
//
//   before:  %9 = load %8:ptrs, %7:mask : tile<float, BLOCK>
//   after:   %9 = load ... #0  {width=cmin(L0::VEC, gcd(...) / 4)}
#pragma once

#include "ir/IR.h"
#include "target/Target.h"

#include <string>

namespace tilec {

/// The C++ name of layout `i` in generated code ("L0").
std::string layoutName(int i);

/// The axes of a rank-3 blocked layout that layout `i` holds, as a bit mask: 0b111 for the
/// Blocked3D itself, fewer for its slices (0b011 after reducing axis 2); 0 for the layouts of
/// rank-1 and rank-2 tiles.
int rank3Axes(const Kernel &k, int i);

/// Assigns layouts for `target`; returns "" or a description of a tile that would need a
/// layout conversion (not supported yet), with `where` set to the op concerned. (The layouts
/// are the same on every target so far: the mma layout's warp split for wgmma is the device
/// library's choice, made when the code is compiled for sm_90a.)
std::string runLayoutAssignment(Kernel &k, const Target &target, const Op **where = nullptr);

} // namespace tilec
