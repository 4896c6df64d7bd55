#include "codegen/NameTable.h"

namespace tilec {

std::string NameTable::fresh(const std::string &want) {
  std::string n = want;
  for (int i = 1; used_.count(n); ++i)
    n = want + "_" + std::to_string(i);
  used_.insert(n);
  return n;
}

const std::string &NameTable::of(const Value *v) {
  auto it = byValue_.find(v->id);
  if (it != byValue_.end())
    return it->second;
  std::string n = fresh(v->name.empty() ? "t" + std::to_string(v->id) : v->name);
  return byValue_.emplace(v->id, n).first->second;
}

} // namespace tilec
