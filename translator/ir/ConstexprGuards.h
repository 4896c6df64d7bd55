// The user's `if constexpr` conditions around each op. Code under a false condition is
// discarded where a specialization instantiates the kernel, as Triton drops a false constexpr
// branch, so a tile made only there need not exist elsewhere: a dimension may be 0 (vLLM's
// MLA decode: `if BLOCK_DPE > 0:`). What checks or builds such a tile's shape holds under the
// guard only.
//
// Branches the passes make to version code on specialization facts (`K_is_1`, the tensor
// maps, the grid: ir/SpecFacts.h) are copies of the same user code, so they guard nothing.
#pragma once

#include "ir/IR.h"

#include <functional>
#include <string>
#include <vector>

namespace tilec {

/// A conjunction of conditions, outermost first, each "(cond)" or "!(cond)".
using Guard = std::vector<std::string>;

/// Visits every op in program order with the user's `if constexpr` conditions around it (an
/// else region takes the negation).
void walkGuarded(const Kernel &k, const std::function<void(const Op &, const Guard &)> &fn);

/// Whether the C++ condition `cond` names a value defined in `r` (a constexpr local the user
/// declared there): outside `r`, before those definitions, it is not declared.
bool conditionNamesValueOf(const Region &r, const std::string &cond);

/// Where something occurs: under any of several guards, simplified (`P && (c)` with
/// `P && !(c)` is P; a guard with every condition of another goes).
class GuardSet {
public:
  void add(const Guard &g);
  /// True when some occurrence is unguarded (the empty guard).
  bool always() const;
  /// The disjunction of the guards as C++, "" when always.
  std::string condition() const;

private:
  std::vector<Guard> guards_;
};

} // namespace tilec
