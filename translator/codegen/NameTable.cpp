#include "codegen/NameTable.h"

namespace tilec {

std::string NameTable::fresh(const std::string &want) {
  // Resume at the suffix the last request for `want` ended at: names are never released, so
  // every earlier candidate is still taken, and a kernel that reassigns one variable 100,000
  // times stays linear instead of retrying a_1, a_2, ... from the start each time.
  int &i = nextSuffix_[want];
  std::string n = i == 0 ? want : want + "_" + std::to_string(i);
  while (used_.count(n))
    n = want + "_" + std::to_string(++i);
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
