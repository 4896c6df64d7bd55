#include "transforms/OrderMemoryAccesses.h"

#include "ir/Rewriter.h"

#include <map>

namespace tilec {

namespace {

/// One global-memory access: which pointer argument it goes through (-1: unknown, any), who
/// makes it (every thread of a layout for tiles, thread 0 for scalar writes, every thread for
/// scalar reads) and whether it writes.
struct Access {
  int base = -1;
  bool tile = false, write = false;
  int layout = -1;
  bool operator==(const Access &o) const {
    return base == o.base && tile == o.tile && write == o.write && layout == o.layout;
  }
};

/// Adds `a` to `list` unless an equal access is there: whether a later access conflicts
/// depends only on the fields, and without this each `if` doubled the list (both arms carry
/// what came before), 2^20 entries after twenty of them.
void addAccess(std::vector<Access> &list, const Access &a) {
  for (const Access &x : list)
    if (x == a)
      return;
  list.push_back(a);
}

class Orderer {
public:
  explicit Orderer(Kernel &k) : k_(k) {
    walkOps(k, [&](Op &op) {
      for (auto &r : op.regions)
        for (size_t i = 0; i < r->args.size(); ++i)
          owner_[r->args[i]] = {&op, i};
    });
  }
  void region(Region &r, std::vector<Access> &pending);

private:
  Kernel &k_;
  std::map<const Value *, std::pair<Op *, size_t>> owner_; // region argument -> (op, index)

  int baseOf(const Value *v, int depth = 0);
  bool accessOf(const Op &op, Access &a);
  static bool conflict(const Access &a, const Access &b);
  void collect(Region &r, std::vector<Access> &out);
};

/// The pointer argument `v` points into, or -1 when that cannot be told.
int Orderer::baseOf(const Value *v, int depth) {
  if (depth > 64)
    return -1;
  if (!v->def) {
    // A loop's carried pointer: where it started (it moves by offsets only).
    auto it = owner_.find(v);
    if (it == owner_.end() || it->second.first->kind != OpKind::For || it->second.second == 0)
      return -1;
    const Op *loop = it->second.first;
    return baseOf(loop->operands[3 + it->second.second - 1], depth + 1);
  }
  const Op &d = *v->def;
  switch (d.kind) {
  case OpKind::Param:
    return v->type.pointer ? int(d.attrs[0].value()) : -1;
  case OpKind::AddPtr:
  case OpKind::Broadcast:
  case OpKind::ExpandDims:
  case OpKind::Splat:
  case OpKind::Hint:
  case OpKind::ConvertLayout:
  case OpKind::Trans:
  case OpKind::Reshape:
  case OpKind::Flip:
  case OpKind::Gather: // the pointers come from src, operand 0
    return baseOf(d.operands[0], depth + 1);
  case OpKind::Select: {
    int a = baseOf(d.operands[1], depth + 1), b = baseOf(d.operands[2], depth + 1);
    return a == b ? a : -1;
  }
  default:
    return -1;
  }
}

bool Orderer::accessOf(const Op &op, Access &a) {
  const Value *ptrs = nullptr;
  switch (op.kind) {
  case OpKind::Load:
    ptrs = op.operands[0];
    break;
  case OpKind::Store:
  case OpKind::Atomic:
    ptrs = op.operands[0];
    a.write = true;
    break;
  case OpKind::AsyncCopy:
  case OpKind::TmaCopy:
    ptrs = op.operands[1];
    break;
  default:
    return false;
  }
  a.base = baseOf(ptrs);
  a.tile = ptrs->type.isTile();
  a.layout = ptrs->layout;
  return true;
}

/// Whether b, after a, may touch an element a touched, from another thread, one of them
/// writing.
bool Orderer::conflict(const Access &a, const Access &b) {
  if (!a.write && !b.write)
    return false;
  if (a.base >= 0 && b.base >= 0 && a.base != b.base)
    return false;
  if (a.tile && b.tile && a.layout == b.layout)
    return false; // each element from the same thread
  if (!a.tile && !b.tile && a.write && b.write)
    return false; // both from thread 0
  return true;
}

/// Every access in `r`, nested regions included.
void Orderer::collect(Region &r, std::vector<Access> &out) {
  walkOps(r, [&](Op &op) {
    Access a;
    if (accessOf(op, a))
      addAccess(out, a);
  });
}

void Orderer::region(Region &r, std::vector<Access> &pending) {
  for (size_t i = 0; i < r.ops.size(); ++i) {
    Op &op = *r.ops[i];
    if (op.kind == OpKind::Barrier) {
      pending.clear();
      continue;
    }
    Access a;
    if (accessOf(op, a)) {
      for (const Access &p : pending)
        if (conflict(p, a)) {
          Op *barrier = Builder(k_, &op).create(OpKind::Barrier, {}, Type{}, false);
          barrier->srcText = "other threads' accesses to these elements come first";
          barrier->line = op.line;
          ++i; // `op` moved one place on
          pending.clear();
          break;
        }
      addAccess(pending, a);
      continue;
    }
    if (op.regions.empty())
      continue;
    bool loop = op.kind == OpKind::For || op.kind == OpKind::While;
    if (loop && !pending.empty()) {
      // An access before the loop that conflicts with one inside it: one barrier before the
      // loop orders them, rather than one in every iteration (the body's own accesses are
      // still ordered against each other below).
      std::vector<Access> body;
      for (auto &sub : op.regions)
        collect(*sub, body);
      bool conflicts = false;
      for (const Access &p : pending)
        for (const Access &b : body)
          conflicts = conflicts || conflict(p, b);
      if (conflicts) {
        Op *barrier = Builder(k_, &op).create(OpKind::Barrier, {}, Type{}, false);
        barrier->srcText = "other threads' accesses before the loop come first";
        barrier->line = op.line;
        ++i; // `op` moved one place on
        pending.clear();
      }
    }
    std::vector<Access> after;
    for (auto &sub : op.regions) {
      std::vector<Access> inner = pending;
      if (loop) // the previous iteration's accesses come before this one's
        for (auto &all : op.regions)
          collect(*all, inner);
      region(*sub, inner);
      // A branch that ends by leaving the kernel: what comes after the `if` runs only where
      // it was not taken (its condition is a scalar, the same in every thread), so nothing
      // in it precedes what follows.
      if (op.kind == OpKind::If && !sub->ops.empty() && sub->ops.back()->kind == OpKind::Return)
        continue;
      for (const Access &x : inner)
        addAccess(after, x);
    }
    if (op.kind != OpKind::Reduce && op.kind != OpKind::Scan)
      for (const Access &x : after)
        addAccess(pending, x);
  }
}

} // namespace

void runOrderMemoryAccesses(Kernel &k) {
  std::vector<Access> pending;
  Orderer(k).region(k.body, pending);
}

} // namespace tilec
