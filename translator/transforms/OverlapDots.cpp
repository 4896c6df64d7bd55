#include "transforms/OverlapDots.h"

#include "ir/Rewriter.h"

#include <algorithm>
#include <map>

namespace tilec {

namespace {

/// A dot whose operands are both in shared memory: nothing of it stays in registers while its
/// wgmmas are in flight but the accumulators.
bool bothShared(const Op &op) {
  return op.kind == OpKind::Dot && op.operands[0]->type.shared && op.operands[1]->type.shared &&
         !op.dotRegistersA && !op.dotNoWait;
}

/// What a dot may be moved up across: nothing that writes shared memory, waits for it or
/// passes a barrier that makes it ready.
bool passable(const Op &op) {
  return isRegisterArithmetic(op.kind) || op.kind == OpKind::StageView ||
         op.kind == OpKind::StageRead || op.kind == OpKind::Reduce || dotStagesNothing(op);
}

class Overlap {
public:
  explicit Overlap(Kernel &k) : k_(k) {}

  void region(Region &r) {
    for (size_t i = 0; i < r.ops.size(); ++i) {
      for (auto &sub : r.ops[i]->regions)
        region(*sub);
      if (bothShared(*r.ops[i]))
        pairWithNext(r, i);
    }
  }

private:
  Kernel &k_;

  /// Moves the first later dot of `r` that can run right after dot `r.ops[i]` there, and lets
  /// the two overlap.
  void pairWithNext(Region &r, size_t i) {
    Op *first = r.ops[i].get();
    std::map<const Op *, size_t> at;
    for (size_t j = 0; j < r.ops.size(); ++j)
      at[r.ops[j].get()] = j;
    for (size_t j = i + 1; j < r.ops.size(); ++j) {
      Op *second = r.ops[j].get();
      if (dotStagesNothing(*second) && !second->dotNoWait) {
        std::vector<Op *> defs; // what moves up with it, in order
        if (movable(*second, first, at, i, j, defs)) {
          std::sort(defs.begin(), defs.end(),
                    [&](const Op *a, const Op *b) { return at.at(a) < at.at(b); });
          // Right after the first dot, past what moves that is there already (the anchor
          // must not move itself).
          size_t a = i + 1;
          while (r.ops[a].get() != second &&
                 std::find(defs.begin(), defs.end(), r.ops[a].get()) != defs.end())
            ++a;
          Op *anchor = r.ops[a].get();
          if (anchor != second) {
            for (Op *d : defs)
              if (at.at(d) > a)
                moveBefore(k_, d, anchor);
            moveBefore(k_, second, anchor);
          }
          first->dotNoWait = true;
          Builder(k_, second, /*after=*/true)
              .create(OpKind::DotWait, {first->result}, Type{}, /*hasResult=*/false);
          return;
        }
      }
      if (!passable(*second))
        return;
    }
  }

  /// Whether `op` (at position j) reads nothing computed after position i but stage views,
  /// constants and splats of values from before i, which `defs` collects to move with it.
  /// Null-def values (region arguments) are from before.
  bool movable(const Op &op, const Op *first, const std::map<const Op *, size_t> &at, size_t i,
               size_t j, std::vector<Op *> &defs) {
    for (const Value *v : op.operands) {
      if (v == first->result)
        return false;
      const Op *d = v->def;
      auto pos = d ? at.find(d) : at.end();
      if (pos == at.end() || pos->second < i)
        continue; // from before, or from an enclosing region
      if (pos->second >= j ||
          !(d->kind == OpKind::StageView || d->kind == OpKind::Constant ||
            d->kind == OpKind::Splat) ||
          !movable(*d, first, at, i, pos->second, defs))
        return false;
      if (std::find(defs.begin(), defs.end(), d) == defs.end())
        defs.push_back(const_cast<Op *>(d));
    }
    return true;
  }
};

} // namespace

void runOverlapDots(Kernel &k, const Target &target) {
  if (!target.wgmma)
    return;
  Overlap(k).region(k.body);
}

} // namespace tilec
