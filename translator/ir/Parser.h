// Reads the textual IR that printKernel writes back into a Kernel, so that passes can run on
// IR files (tilec-opt) and the printed form is known to be complete (checkRoundTrip).
//
//   kernel @add_kernel<int BLOCK>(const float* x, int n)
//     layout #0 blocked[BLOCK] max_vec=4
//     %0:x = param [0] : const float*
//     %5:offs = binary "+" %3, %4 : tile<int, BLOCK> #0  {contig=BLOCK div=... const=1}
//     %9:acc = for "<" %6, %7, %8, %5:acc
//     {
//       ^(%10:i : int, %11:acc : tile<int, BLOCK> #0)
//       ...
//       yield %12
//     }
//
// Lines whose first non-blank characters are `//` are comments (FileCheck lines, the
// --dump-after banners); several kernels may follow one another. Values keep their printed
// ids (ids that do not appear become unused placeholders) and their use counts are recounted
// from the operands and yields. What the text does not hold stays default: source locations
// and the C++ text of each op (so diagnostics and generated comments lose them).
#pragma once

#include "ir/IR.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// Parses every kernel in `text`. Returns "" or "line N: message" (`out` then holds the
/// kernels read before the error).
std::string parseKernels(std::string_view text, std::vector<std::unique_ptr<Kernel>> &out);

/// Parses a text holding exactly one kernel; null with `err` set on failure.
std::unique_ptr<Kernel> parseKernel(std::string_view text, std::string &err);

/// A printed SymExpr back into one that prints the same and folds the same (tilec::cmin,
/// tilec::cmax, tilec::gcd calls and `(cond ? a : b)` selects keep their structure).
std::optional<SymExpr> parseSymExpr(std::string_view text);

/// A printed type (Type::str()): "tile<const float*, BLOCK>", "tl::half", "T*", ...
std::optional<Type> parseType(std::string_view text);

/// The first line where `expected` and `actual` differ, with both versions (for messages).
std::string firstDifference(const std::string &expected, const std::string &actual);

} // namespace tilec
