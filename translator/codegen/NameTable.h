// Deterministic, collision-free C++ names for values in generated code.
#pragma once

#include "ir/IR.h"

#include <map>
#include <set>
#include <string>

namespace tilec {

class NameTable {
public:
  /// Reserves a name used by the generated code itself.
  void reserve(const std::string &n) { used_.insert(n); }
  /// A fresh name based on `want` (`offs`, `offs_1`, ...).
  std::string fresh(const std::string &want);
  /// The name of a value: its source variable's name if it has one, else `t<id>`.
  const std::string &of(const Value *v);

private:
  std::set<std::string> used_;
  std::map<int, std::string> byValue_;    // keyed by value id: deterministic
  std::map<std::string, int> nextSuffix_; // per wanted name: the first suffix not yet tried
};

} // namespace tilec
