#include "ir/ConstexprGuards.h"

#include "ir/SpecFacts.h"
#include "ir/Words.h"

#include <algorithm>

namespace tilec {

namespace {

/// Whether every name in `cond` is a specialization fact: a branch a pass made to version code.
bool onlySpecFacts(const Kernel &k, const std::string &cond) {
  return allIdentifiers(cond, [&](const std::string &word) {
    bool fact = word == mapsFactName() || word == gridFactName(1) || word == gridFactName(2);
    for (const KernelParam &p : k.params)
      fact |= word == oneFactName(p);
    return fact;
  });
}

void walkRegionGuarded(const Kernel &k, const Region &r, const Guard &guard,
                       const std::function<void(const Op &, const Guard &)> &fn) {
  for (auto &op : r.ops) {
    fn(*op, guard);
    const bool guarding = op->kind == OpKind::If && !op->constexprCond.empty() &&
                          !onlySpecFacts(k, op->constexprCond);
    for (size_t i = 0; i < op->regions.size(); ++i) {
      Guard inner = guard;
      if (guarding)
        inner.push_back((i == 0 ? "(" : "!(") + op->constexprCond + ")");
      walkRegionGuarded(k, *op->regions[i], inner, fn);
    }
  }
}

bool complementary(const std::string &a, const std::string &b) {
  return a == "!" + b || b == "!" + a;
}

} // namespace

bool conditionNamesValueOf(const Region &r, const std::string &cond) {
  bool found = false;
  auto check = [&](const Value *v) {
    found = found || (v && !v->name.empty() && containsWord(cond, v->name));
  };
  for (const Value *a : r.args)
    check(a);
  walkRegion(r, [&](const Op &op) {
    check(op.result);
    for (const Value *v : op.results)
      check(v);
    for (auto &sub : op.regions)
      for (const Value *a : sub->args)
        check(a);
  });
  return found;
}

void walkGuarded(const Kernel &k, const std::function<void(const Op &, const Guard &)> &fn) {
  walkRegionGuarded(k, k.body, {}, fn);
}

void GuardSet::add(const Guard &g) {
  guards_.push_back(g);
  for (bool changed = true; changed;) {
    changed = false;
    // A guard with every condition of another (and more) holds only where that one does.
    for (size_t i = 0; i < guards_.size() && !changed; ++i)
      for (size_t j = 0; j < guards_.size() && !changed; ++j)
        if (i != j && guards_[i].size() <= guards_[j].size() &&
            std::all_of(guards_[i].begin(), guards_[i].end(), [&](const std::string &c) {
              return std::find(guards_[j].begin(), guards_[j].end(), c) != guards_[j].end();
            })) {
          guards_.erase(guards_.begin() + long(j));
          changed = true;
        }
    // The two arms of one branch make its enclosing guard.
    for (size_t i = 0; i < guards_.size() && !changed; ++i)
      for (size_t j = i + 1; j < guards_.size() && !changed; ++j) {
        const Guard &a = guards_[i], &b = guards_[j];
        if (a.empty() || a.size() != b.size() || !complementary(a.back(), b.back()) ||
            !std::equal(a.begin(), a.end() - 1, b.begin()))
          continue;
        Guard outer(a.begin(), a.end() - 1);
        guards_.erase(guards_.begin() + long(j));
        guards_[i] = outer;
        changed = true;
      }
  }
}

bool GuardSet::always() const {
  return std::any_of(guards_.begin(), guards_.end(), [](const Guard &g) { return g.empty(); });
}

std::string GuardSet::condition() const {
  if (guards_.empty() || always())
    return "";
  auto conj = [](const Guard &g) {
    std::string s;
    for (const std::string &t : g)
      s += (s.empty() ? "" : " && ") + t;
    return s;
  };
  if (guards_.size() == 1)
    return conj(guards_[0]);
  std::string any;
  for (const Guard &g : guards_)
    any += (any.empty() ? "(" : " || (") + conj(g) + ")";
  return any;
}

} // namespace tilec
