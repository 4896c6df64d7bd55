#include "transforms/UnitStrideDotLoops.h"

#include "ir/Rewriter.h"
#include "ir/SpecFacts.h"
#include "target/Target.h"
#include "transforms/SameTypeCasts.h"
#include "transforms/StrideTerms.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace tilec {

namespace {

// More copies of the loop would make the CUDA hard to read for little: the common layouts of
// two operands (row- or column-major each) are four.
constexpr size_t kMaxVersions = 4;

/// Whether the tile `v` steps by 1 along its varying dimension: an arange, shifted by scalars
/// or uniform tiles, wrapped by a scalar %, moved to rank 2 by expand_dims.
bool arangeStepped(const Value *v) {
  v = stripCastsAndBroadcasts(v);
  while (const Op *h = defOf(v, OpKind::Hint)) // tutorial 03's max_contiguous(multiple_of(...))
    v = stripCastsAndBroadcasts(h->operands[0]);
  if (v->type.isScalar())
    return false;
  const Op *d = v->def;
  if (!d)
    return false;
  if (d->kind == OpKind::Arange)
    return true;
  if (d->kind == OpKind::ExpandDims)
    return arangeStepped(d->operands[0]);
  if (d->kind == OpKind::Binary && (d->opcode == "+" || d->opcode == "-")) {
    const Value *a = stripCastsAndBroadcasts(d->operands[0]);
    const Value *b = stripCastsAndBroadcasts(d->operands[1]);
    auto uniform = [](const Value *x) {
      return x->type.isScalar() || (x->def && x->def->kind == OpKind::Splat);
    };
    if (uniform(b))
      return arangeStepped(a);
    return d->opcode == "+" && uniform(a) && arangeStepped(b);
  }
  if (d->kind == OpKind::Binary && d->opcode == "%" && d->operands[1]->type.isScalar())
    return arangeStepped(d->operands[0]);
  return false;
}

/// One way to make a load contiguous: its pointers step by `args` along dimension `dim`.
struct Option {
  int dim = 0;
  std::vector<const Value *> args;
};

/// What a load in a dot loop offers.
struct LoadOptions {
  std::vector<Option> options; // the last dimension first
  bool gathered = false;       // some dimension varies by something that is not an arange
};

LoadOptions optionsOf(const Kernel &k, const Op &load,
                      const std::map<const Value *, const Value *> &inits) {
  LoadOptions out;
  const Type &t = load.operands[0]->type;
  const int rank = int(t.shape.size());
  std::vector<std::vector<const Value *>> args(static_cast<size_t>(rank));
  std::vector<bool> unit(static_cast<size_t>(rank), false);
  std::vector<bool> blocked(static_cast<size_t>(rank), false);
  for (const Value *term : offsetTerms(load.operands[0], inits)) {
    if (term->type.isScalar() || defOf(term, OpKind::Splat))
      continue; // the same for every element
    const Type &tt = term->type;
    const Value *core = term;
    while (const Op *e = defOf(core, OpKind::ExpandDims))
      core = stripCastsAndBroadcasts(e->operands[0]);
    if (int(tt.shape.size()) != rank)
      return {}; // a term of another rank: not a shape this pass reads
    for (int d = 0; d < rank; ++d) {
      if (tt.shape[size_t(d)].isConst(1))
        continue;
      if (arangeStepped(term)) {
        unit[size_t(d)] = true;
        continue;
      }
      const Op *mul = defOf(core, OpKind::Binary);
      const Value *param = nullptr, *stepped = nullptr;
      if (mul && mul->opcode == "*")
        for (int j = 0; j < 2 && !param; ++j)
          if ((param = integerParam(mul->operands[size_t(j)])))
            stepped = mul->operands[size_t(1 - j)];
      if (param && arangeStepped(stepped)) {
        if (std::find(args[size_t(d)].begin(), args[size_t(d)].end(), param) ==
            args[size_t(d)].end())
          args[size_t(d)].push_back(param);
      } else {
        blocked[size_t(d)] = true;
        out.gathered = true;
      }
    }
  }
  for (int d = 0; d < rank; ++d)
    if (unit[size_t(d)] && args[size_t(d)].empty() && !blocked[size_t(d)])
      return {}; // contiguous along d already
  for (int d = rank - 1; d >= 0; --d) {
    if (args[size_t(d)].empty() || blocked[size_t(d)] || t.shape[size_t(d)].isConst(1))
      continue;
    std::vector<size_t> params;
    for (const Value *a : args[size_t(d)])
      params.push_back(size_t(defOf(a, OpKind::Param)->attrs[0].value()));
    if (roomForOneFacts(k, params))
      out.options.push_back({d, args[size_t(d)]});
  }
  return out;
}

/// The carried variables of every for loop: region argument -> initial value.
std::map<const Value *, const Value *> carriedInits(Kernel &k) {
  std::map<const Value *, const Value *> out;
  walkOps(k, [&](Op &op) {
    if (op.kind != OpKind::For)
      return;
    const Region &body = *op.regions[0];
    for (size_t j = 1; j < body.args.size(); ++j)
      out[body.args[j]] = op.operands[3 + j - 1];
  });
  return out;
}

/// Every value the loop reads that is defined outside it.
std::vector<const Value *> readsFromOutside(const Op &loop) {
  std::set<const Value *> inside;
  std::vector<const Value *> out;
  std::set<const Value *> seen;
  auto note = [&](const Value *v) {
    if (!inside.count(v) && seen.insert(v).second)
      out.push_back(v);
  };
  std::function<void(const Region &)> visit = [&](const Region &r) {
    for (const Value *a : r.args)
      inside.insert(a);
    for (const auto &op : r.ops) {
      for (const Value *o : op->operands)
        note(o);
      for (const auto &sub : op->regions)
        visit(*sub);
      if (op->result)
        inside.insert(op->result);
      for (const Value *v : op->results)
        inside.insert(v);
    }
    for (const Value *y : r.yields)
      note(y);
  };
  for (const Value *o : loop.operands)
    note(o);
  for (const auto &r : loop.regions)
    visit(*r);
  return out;
}

/// The versions: one option per load, every combination (the loads' first options first),
/// as sets of arguments; duplicates dropped, at most kMaxVersions.
std::vector<std::vector<const Value *>> versionsOf(const std::vector<LoadOptions> &loads) {
  std::vector<std::vector<const Value *>> out = {{}};
  for (const LoadOptions &l : loads) {
    if (l.options.empty())
      continue;
    std::vector<std::vector<const Value *>> next;
    for (const auto &prefix : out)
      for (const Option &o : l.options) {
        std::vector<const Value *> v = prefix;
        for (const Value *a : o.args)
          if (std::find(v.begin(), v.end(), a) == v.end())
            v.push_back(a);
        next.push_back(v);
      }
    out = std::move(next);
  }
  std::vector<std::vector<const Value *>> unique;
  for (auto &v : out) {
    std::vector<const Value *> sorted = v;
    std::sort(sorted.begin(), sorted.end(),
              [](const Value *a, const Value *b) { return a->id < b->id; });
    bool seen = false;
    for (const auto &u : unique) {
      std::vector<const Value *> s = u;
      std::sort(s.begin(), s.end(), [](const Value *a, const Value *b) { return a->id < b->id; });
      seen = seen || s == sorted;
    }
    if (!v.empty() && !seen && unique.size() < kMaxVersions)
      unique.push_back(v);
  }
  return unique;
}

/// Folds the scalar integer casts of constants in `r` (the arguments' casts, now of 1), so
/// that axis-info sees a constant factor.
void foldCastsOfConstants(Kernel &k, Region &r) {
  std::vector<Op *> casts;
  walkOps(r, [&](Op &op) {
    if (op.kind == OpKind::Cast && op.result && op.result->type.isScalar() &&
        op.result->type.elem.isInteger() && defOf(op.operands[0], OpKind::Constant) &&
        op.operands[0]->type.elem.isInteger())
      casts.push_back(&op);
  });
  for (Op *cast : casts) {
    Op *c = Builder(k, cast).create(OpKind::Constant, {}, cast->result->type);
    c->attrs = cast->operands[0]->def->attrs;
    replaceAllUses(k, cast->result, c->result);
    eraseOp(k, cast);
  }
}

/// Whether a mask's bound may be a tensor map's extent (tma-copies): built from kernel
/// arguments, constants and the loop's induction variable with + - * (`K - k * BLOCK_K`), where
/// a bound computed otherwise (`min(chunk_size, seqlen - c * chunk_size)`) is a program's own.
bool extentLike(const Value *v, int depth = 0) {
  v = stripCastsAndBroadcasts(v);
  if (!v->def || depth > 8)
    return true; // a region argument: the induction variable or a carried scalar
  const Op *d = v->def;
  if (d->kind == OpKind::Param || d->kind == OpKind::Constant)
    return true;
  if (d->kind == OpKind::Binary && (d->opcode == "+" || d->opcode == "-" || d->opcode == "*"))
    return extentLike(d->operands[0], depth + 1) && extentLike(d->operands[1], depth + 1);
  return false;
}

/// Whether every compare in a load's mask bounds its offsets by extent-like scalars: the
/// masks tma-copies may take for a matrix's edges.
bool maskExtentLike(const Value *mask, int depth = 0) {
  mask = stripCastsAndBroadcasts(mask);
  const Op *d = mask->def;
  if (!d || depth > 16)
    return false;
  if (d->kind == OpKind::ExpandDims)
    return maskExtentLike(d->operands[0], depth + 1);
  if (d->kind != OpKind::Binary)
    return false;
  if (d->opcode == "&" || d->opcode == "&&")
    return maskExtentLike(d->operands[0], depth + 1) && maskExtentLike(d->operands[1], depth + 1);
  if (d->opcode == "<" || d->opcode == "<=" || d->opcode == ">" || d->opcode == ">=") {
    for (int j = 0; j < 2; ++j) {
      const Value *side = stripCastsAndBroadcasts(d->operands[size_t(j)]);
      if (side->type.isScalar())
        return extentLike(side);
    }
    return false;
  }
  return false;
}

class Versioner {
public:
  Versioner(Kernel &k, Op &loop, const std::vector<const Op *> &slice)
      : k_(k), loop_(loop), slice_(slice) {}

  /// Replaces the loop by the chain of versions.
  void run(const std::vector<std::vector<const Value *>> &versions) {
    // Only what is read after the loop goes out of the branch: the pointers a loop advances
    // stay unread after it (transpose-loads and the pipeline ask that of them).
    for (size_t i = 0; i < loop_.results.size(); ++i)
      if (loop_.results[i]->uses > 0)
        carried_.push_back(i);
    std::unique_ptr<Op> original = detach();
    Op *top = chain(versions, 0, original);
    for (size_t j = 0; j < carried_.size(); ++j)
      replaceAllUses(k_, loop_.results[carried_[j]], top->results[j]);
    // The innermost else yields the original loop's results (set after the replacement).
    Region &last = *innermostElse_;
    for (size_t i : carried_) {
      last.yields.push_back(loop_.results[i]);
      loop_.results[i]->uses++;
    }
    last.ops.push_back(std::move(original));
  }

private:
  Kernel &k_;
  Op &loop_;
  const std::vector<const Op *> &slice_;
  Op *anchor_ = nullptr;
  Region *innermostElse_ = nullptr;
  std::vector<size_t> carried_; // the loop's results read after it

  /// Takes the loop out of its region, leaving a placeholder the chain goes before.
  std::unique_ptr<Op> detach() {
    OpPosition pos = locate(k_, &loop_);
    auto placeholder = std::make_unique<Op>();
    placeholder->kind = OpKind::Barrier; // replaced below, never emitted
    anchor_ = placeholder.get();
    std::unique_ptr<Op> loop = std::move(pos.region->ops[pos.index]);
    pos.region->ops[pos.index] = std::move(placeholder);
    return loop;
  }

  std::string condition(const std::vector<const Value *> &args) const {
    std::string c;
    for (const Value *a : args)
      c += (c.empty() ? "" : " && ") +
           oneFactName(k_.params[size_t(defOf(a, OpKind::Param)->attrs[0].value())]);
    return c;
  }

  std::string says(const std::vector<const Value *> &args) const {
    std::string s;
    for (const Value *a : args)
      s += (s.empty() ? "" : " && ") + a->name + " == 1";
    return s + ": the tl::dot loop's loads are contiguous (a copy for this specialization)";
  }

  /// An If choosing version `i` or, in its else arm, the rest of the chain.
  Op *chain(const std::vector<std::vector<const Value *>> &versions, size_t i,
            const std::unique_ptr<Op> &original) {
    std::vector<Value *> inits;
    for (size_t j : carried_)
      inits.push_back(loop_.operands[3 + j]);
    Op *branch;
    if (i == 0) {
      branch = Builder(k_, anchor_).create(OpKind::If, inits, Type{}, /*hasResult=*/false);
      OpPosition pos = locate(k_, anchor_);
      pos.region->ops.erase(pos.region->ops.begin() + long(pos.index));
    } else {
      branch = Builder(k_, *elseRegion_, loop_).create(OpKind::If, inits, Type{}, false);
    }
    branch->constexprCond = condition(versions[i]);
    branch->srcText = says(versions[i]);
    branch->line = loop_.line;
    for (size_t j : carried_) {
      branch->carriedNames.push_back(loop_.carriedNames[j]);
      branch->results.push_back(k_.newValue(loop_.results[j]->type, loop_.results[j]->name));
    }

    // Then: the arguments 1, the pointer arithmetic reading them, the loop.
    auto then = std::make_unique<Region>();
    {
      std::map<const Value *, Value *> map;
      Builder b(k_, *then, loop_);
      for (const Value *a : versions[i]) {
        Op *one = b.create(OpKind::Constant, {}, a->type);
        one->attrs = {SymExpr(1)};
        map[a] = one->result;
      }
      cloneOps(k_, slice_, *then, map);
      cloneOps(k_, {original.get()}, *then, map);
      Op *copy = then->ops.back().get();
      for (size_t j : carried_) {
        then->yields.push_back(copy->results[j]);
        copy->results[j]->uses++;
      }
    }
    branch->regions.push_back(std::move(then));
    foldCastsOfConstants(k_, *branch->regions[0]); // in the kernel now: the rewriter finds it
    branch->regions.push_back(std::make_unique<Region>());
    Region &otherwise = *branch->regions.back();
    if (i + 1 < versions.size()) {
      elseRegion_ = &otherwise;
      Op *inner = chain(versions, i + 1, original);
      for (Value *v : inner->results) {
        otherwise.yields.push_back(v);
        v->uses++;
      }
    } else {
      innermostElse_ = &otherwise;
    }
    return branch;
  }

  Region *elseRegion_ = nullptr;
};

} // namespace

void runUnitStrideDotLoops(Kernel &k, const Target &target) {
  // Not the loops same-type-casts keeps as written for the specializations whose casts change
  // the type (rare; their loads are not pipelined either way): copies would only make them
  // longer to read.
  const std::vector<Op *> loops = outermostDotLoops(k.body, [](const Op &op, size_t region) {
    return region == 0 || op.kind != OpKind::If ||
           op.constexprCond.rfind(kSameTypeCondition, 0) != 0;
  });
  const auto inits = carriedInits(k);
  for (Op *loop : loops) {
    std::vector<LoadOptions> loads;
    bool gathered = false, programBounds = false;
    walkOps(*loop->regions[0], [&](Op &op) {
      const Type &ptrs = op.kind == OpKind::Load ? op.operands[0]->type : Type{};
      if (!ptrs.isTile() || !ptrs.pointer || ptrs.shared)
        return;
      LoadOptions l = optionsOf(k, op, inits);
      gathered = gathered || (l.gathered && !l.options.empty());
      if (!l.options.empty()) {
        programBounds = programBounds || (op.operands.size() > 1 && op.operands[1]->type.isTile() &&
                                          !maskExtentLike(op.operands[1]));
        loads.push_back(std::move(l));
      }
    });
    // With the copy engine, affine operands go by tensor maps whatever their strides; not
    // those masked by a program's own bounds (Mamba's chunks), which no tensor map has.
    if (loads.empty() || (target.tma && !gathered && !programBounds))
      continue;
    auto versions = versionsOf(loads);
    if (versions.empty())
      continue;
    std::set<const Value *> args;
    for (const auto &v : versions)
      args.insert(v.begin(), v.end());
    std::vector<const Op *> slice;
    if (!sliceFromArgs(readsFromOutside(*loop), args, slice))
      continue;
    Versioner(k, *loop, slice).run(versions);
  }
  recountUses(k);
}

} // namespace tilec
