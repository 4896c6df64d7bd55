// The checks of verifyKernel that follow values across ops (see PrintedForm.h).
#include "ir/PrintedForm.h"

#include <map>
#include <set>

namespace tilec {

namespace {

/// The checks of verifyKernel that follow values across ops: each operand and yield is
/// defined before (earlier in its region or an enclosing one, or a region argument), each
/// value is defined once, use counts match, control-flow results have the types of their
/// initial values, and once layouts are assigned every tile has one in range.
class ValueChecker {
public:
  explicit ValueChecker(const Kernel &k) : k_(k) {}

  std::string run() {
    for (size_t i = 0; i < k_.layouts.size(); ++i) {
      const Layout &l = k_.layouts[i];
      if (l.kind == Layout::Kind::Slice && (l.parent < 0 || size_t(l.parent) >= i))
        fail("layout #" + std::to_string(i) + " is a slice of a missing layout");
    }
    region(k_.body);
    for (const Value *v : defined_) {
      if (counted_[v] != v->uses)
        fail(name(v) + " has " + std::to_string(v->uses) + " uses recorded but " +
             std::to_string(counted_[v]) + " in the IR");
      if (v->layout < -1 || (v->layout >= 0 && size_t(v->layout) >= k_.layouts.size()))
        fail(name(v) + " has layout #" + std::to_string(v->layout) + " of " +
             std::to_string(k_.layouts.size()));
      if (!k_.layouts.empty() && v->type.isTile() && !v->type.shared && v->layout < 0)
        fail("tile " + name(v) + " has no layout");
    }
    return err_;
  }

private:
  const Kernel &k_;
  std::string err_;
  std::set<const Value *> visible_;
  std::vector<const Value *> defined_; // in order of definition
  std::set<const Value *> once_;
  std::map<const Value *, int> counted_;

  static std::string name(const Value *v) {
    return "%" + std::to_string(v->id) + (v->name.empty() ? "" : ":" + v->name);
  }
  void fail(const std::string &e) {
    if (err_.empty())
      err_ = e;
  }
  void define(const Value *v, const char *what) {
    if (!v)
      return fail(std::string("null ") + what);
    if (!once_.insert(v).second)
      return fail(name(v) + " is defined twice");
    defined_.push_back(v);
    visible_.insert(v);
  }
  void use(const Value *v, const char *user) {
    if (!v)
      return; // reported by verifyKernel
    counted_[v]++;
    if (!visible_.count(v))
      fail(name(v) + " is used by " + user + " where it is not defined");
  }
  void region(const Region &r) {
    std::vector<const Value *> mine;
    auto scoped = [&](const Value *v, const char *what) {
      define(v, what);
      if (v)
        mine.push_back(v);
    };
    for (const Value *a : r.args)
      scoped(a, "region argument");
    for (auto &op : r.ops) {
      const char *kind = opKindName(op->kind);
      for (const Value *v : op->operands)
        use(v, kind);
      for (auto &sub : op->regions)
        region(*sub);
      if (op->result) {
        scoped(op->result, "result");
        if (op->result->def != op.get())
          fail("the result " + name(op->result) + " of " + kind + " names another op");
      }
      for (size_t i = 0; i < op->results.size(); ++i) {
        scoped(op->results[i], "result");
        size_t at = op->operands.size() + i;
        if (at < op->results.size() || !op->results[i] || !op->operands[at - op->results.size()] ||
            op->results[i]->type.str() != op->operands[at - op->results.size()]->type.str())
          fail(std::string(kind) + " result " + std::to_string(i) +
               " does not have the type of its initial value");
      }
    }
    for (const Value *y : r.yields)
      use(y, "yield");
    for (const Value *v : mine)
      visible_.erase(v);
  }
};

} // namespace

std::string verifyValues(const Kernel &k) { return ValueChecker(k).run(); }

} // namespace tilec
