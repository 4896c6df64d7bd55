// Pieces of the printed IR that the printer (Printer.cpp) and the parser (Parser.cpp) share,
// and the value checks of verifyKernel (VerifyValues.cpp).
#pragma once

#include "ir/IR.h"

#include <functional>
#include <string>
#include <vector>

namespace tilec {

/// A flag or small field of an op, printed between its kind (and opcode) and its operands:
/// `unrolled`, `constexpr(cond)`, `axis=0`. One table drives both directions: a new field
/// is one entry in opWords() (PrintedForm.cpp), in the order it prints. The kernel is there
/// for fields kept outside Op.
struct OpWord {
  std::string word;
  /// The printed token, "" when the op does not have it: the word, `word(arg)` or `word=arg`.
  std::function<std::string(const Kernel &, const Op &)> print;
  /// Sets the field from the token's argument ("" for a bare word); false if it is invalid.
  /// Runs after the op's results are known, before it is added to its region.
  std::function<bool(Kernel &, Op &, const std::string &arg)> parse;
};
const std::vector<OpWord> &opWords();

/// `s` in double quotes with C escapes (\" \\ \n \t, \ooo for other control characters).
std::string quoted(const std::string &s);

/// Whether the printer shows the axis facts of `v` (integer, bool and pointer tiles).
bool printsAxisInfo(const Value &v);
/// "{contig=... div=... const=...}"
std::string axisInfoText(const Value &v);

/// " #2  {contig=... div=... const=...}" for a region argument or a control-flow result, or
/// what of it applies: the layout when it has one, the axis facts when they are not all 1.
std::string valueAnnotations(const Kernel &k, const Value &v);

/// The checks of verifyKernel (Printer.cpp) that follow values across ops: each operand and
/// yield is defined before its use (earlier in its region or an enclosing one, or a region
/// argument) and each value once, use counts match the operands and yields, control-flow
/// results have the types of their initial values, and once layouts are assigned every tile
/// has one in range. "" or a description of the first problem.
std::string verifyValues(const Kernel &k);

} // namespace tilec
