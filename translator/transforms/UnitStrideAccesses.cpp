#include "transforms/UnitStrideAccesses.h"

#include "ir/Rewriter.h"
#include "ir/SpecFacts.h"
#include "transforms/StrideTerms.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace tilec {

namespace {

/// The arguments that multiply a term varying along the pointers' last dimension.
std::vector<const Value *> innerStrides(const Value *ptrs) {
  std::vector<const Value *> out;
  for (const Value *t : offsetTerms(ptrs)) {
    const Op *mul = defOf(t, OpKind::Binary);
    if (!mul || mul->opcode != "*" || !t->type.isTile())
      continue;
    // Along the last dimension: the product (before any broadcast) is not 1 wide there.
    const SymExpr &last = t->type.shape.back();
    if (last.isConst(1))
      continue;
    for (int j = 0; j < 2; ++j) {
      const Value *arg = integerParam(mul->operands[size_t(j)]);
      if (arg && mul->operands[size_t(1 - j)]->type.isTile() &&
          std::find(out.begin(), out.end(), arg) == out.end())
        out.push_back(arg);
    }
  }
  return out;
}

/// Whether the analyses know nothing that makes the scalar `v` a multiple of anything: it is
/// not a constant, an argument (whose DIV16 fact they know), a loop's variable (divisible as
/// its start and step are) or a product with one of those. `tl::program_id(1)` in FlagGems'
/// `m * N * K + n * K + pid_k` is such a term.
bool divisibilityUnknown(const Value *v) {
  v = stripCastsAndBroadcasts(v);
  const Op *d = v->def;
  if (!d || d->kind == OpKind::Constant || d->kind == OpKind::Param || d->kind == OpKind::Hint)
    return false;
  if (d->kind == OpKind::Binary && (d->opcode == "+" || d->opcode == "-"))
    return divisibilityUnknown(d->operands[0]) || divisibilityUnknown(d->operands[1]);
  if (d->kind == OpKind::Binary && d->opcode == "*")
    return divisibilityUnknown(d->operands[0]) && divisibilityUnknown(d->operands[1]);
  return true;
}

/// The scalar integer terms of the pointers' offset whose divisibility nothing tells: in the
/// unit-stride copy they alone keep the rows' runs from 16-byte vectors.
std::vector<const Value *> unalignedScalarTerms(const Value *ptrs) {
  std::vector<const Value *> out;
  for (const Value *t : offsetTerms(ptrs))
    if (t->type.isScalar() && !t->type.pointer && t->type.elem.isInteger() &&
        divisibilityUnknown(t) && std::find(out.begin(), out.end(), t) == out.end())
      out.push_back(t);
  return out;
}

/// How a term reads in the kernel: its variable's name, or the source it came from.
std::string termText(const Value *t) {
  if (!t->name.empty())
    return t->name;
  return t->def && !t->def->srcText.empty() ? "(" + t->def->srcText + ")" : "the offset's term";
}

/// An If before `at` (or appended by `b`) choosing between two copies of `access`, on the
/// runtime `cond` or, when that is null, on `constexprCond`; `then` and `otherwise` fill its
/// regions and return the access copy (or If) whose value a load's region yields.
Op *versionIf(Kernel &k, Builder &b, const Op &access, Value *cond, const std::string &constexprCond,
              const std::string &says, const std::function<Op *(Region &)> &then,
              const std::function<Op *(Region &)> &otherwise) {
  const bool load = access.kind == OpKind::Load;
  std::vector<Value *> operands;
  if (cond)
    operands.push_back(cond);
  if (load) {
    // The branch's result needs an initial value of its type; both arms assign it, so the
    // CUDA declares it without one.
    const Type &t = access.result->type;
    Op *zero = b.create(OpKind::Constant, {}, Type{t.elem, false, false, {}});
    zero->attrs = {SymExpr(0)};
    operands.push_back(b.create(OpKind::Splat, {zero->result}, t)->result);
  }
  Op *branch = b.create(OpKind::If, operands, Type{}, /*hasResult=*/false);
  branch->constexprCond = cond ? "" : constexprCond;
  branch->srcText = says + ": the " + (load ? "load" : "store") +
                    "'s pointers are contiguous along its rows";
  branch->line = access.line;
  std::vector<Op *> arms;
  for (const auto *fill : {&then, &otherwise}) {
    branch->regions.push_back(std::make_unique<Region>());
    arms.push_back((*fill)(*branch->regions.back()));
  }
  if (!load)
    return branch;
  const std::string name = access.result->name.empty() ? "loaded" : access.result->name;
  for (size_t i = 0; i < 2; ++i) {
    Value *v = arms[i]->kind == OpKind::If ? arms[i]->results[0] : arms[i]->result;
    v->name = "";
    branch->regions[i]->yields.push_back(v);
    v->uses++;
  }
  branch->carriedNames.push_back(name);
  Value *result = k.newValue(access.result->type, name);
  result->def = branch;
  branch->results.push_back(result);
  return branch;
}

/// The program id `t` is (through casts), or null.
Op *programIdOf(const Value *t) {
  t = stripCastsAndBroadcasts(t);
  return t->def && t->def->kind == OpKind::ProgramId ? t->def : nullptr;
}

/// In place of `access`, a load:
///
///   if constexpr (arg_is_1 && ...) {            // specialization facts (ir/SpecFacts.h)
///     if (term % V == 0 && ...) { access with the arguments 1 } else { access }
///   } else { access }
///
/// and a store: `if (arg == 1 && ... && term % V == 0 && ...) { ... } else { ... }`.
/// V being the elements of 16 bytes; a load's value becomes the branch's result. In the
/// first arm each term is `tl::multiple_of<V>`, so that its rows are 16-byte aligned as well
/// as contiguous. A term that is tl::program_id(1) or (2) is 0 where the grid has one program
/// along that axis (another fact), which decides its condition at compile time there. An
/// argument the specialization mask has no room for is compared at run time instead, with
/// the terms, in one branch, as a store's are.
void versionAccess(Kernel &k, Op *access, const std::vector<const Value *> &args,
                   const std::vector<const Value *> &terms, const std::vector<const Op *> &slice) {
  Builder before(k, access);
  const Type boolean = Type::scalarOf(ScalarKind::Bool);
  // A load chooses its copy per specialization: its general copy holds registers for every
  // element it loads (FlagGems' argmax: 255 with spills, 72 without that copy). A store keeps
  // the run-time branch: in tutorial 03's matmul epilogue the `if constexpr` form measured
  // 5-40% slower (bench/NOTES.md, "Facts for 1 and for one-program grids").
  std::vector<size_t> params;
  for (const Value *arg : args)
    params.push_back(size_t(defOf(arg, OpKind::Param)->attrs[0].value()));
  bool facts = access->kind == OpKind::Load && roomForOneFacts(k, params);
  std::map<const Value *, Value *> one; // each argument's 1, of its type
  Value *cond = nullptr;
  std::string factCond, says;
  auto conjoin = [&](Builder &b, Value *c, const std::string &text) {
    if (cond) {
      Op *both = b.create(OpKind::Binary, {cond, c}, boolean);
      both->opcode = "&&";
      cond = both->result;
    } else {
      cond = c;
    }
    says += (says.empty() ? "" : " && ") + text;
  };
  for (const Value *arg : args) {
    Op *c = before.create(OpKind::Constant, {}, arg->type);
    c->attrs = {SymExpr(1)};
    one[arg] = c->result;
    if (facts) {
      const KernelParam &p = k.params[size_t(defOf(arg, OpKind::Param)->attrs[0].value())];
      factCond += (factCond.empty() ? "" : " && ") + oneFactName(p);
      continue;
    }
    Op *eq = before.create(OpKind::Binary, {const_cast<Value *>(arg), c->result}, boolean);
    eq->opcode = "==";
    conjoin(before, eq->result, arg->name + " == 1");
  }
  const ElemType &elem = access->operands[0]->type.elem;
  const SymExpr vec = elem.bits() ? SymExpr(std::max(1, 128 / elem.bits()))
                                  : SymExpr::expr("int(16 / " + elem.sizeofExpr() + ")", true);
  // The terms' condition, built by `b` (before the access, or in the constexpr arm).
  auto termsCond = [&](Builder &b) {
    for (const Value *t : terms) {
      if (Op *pid = programIdOf(t); pid && pid->axis > 0)
        pid->zeroIfGridOne = true;
      Op *v = b.create(OpKind::Constant, {}, t->type);
      v->attrs = {vec};
      Op *rem = b.create(OpKind::Binary, {const_cast<Value *>(t), v->result}, t->type);
      rem->opcode = "%";
      Op *zero = b.create(OpKind::Constant, {}, t->type);
      zero->attrs = {SymExpr(0)};
      Op *eq = b.create(OpKind::Binary, {rem->result, zero->result}, boolean);
      eq->opcode = "==";
      conjoin(b, eq->result, termText(t) + " % " + vec.str() + " == 0");
    }
  };
  const bool load = access->kind == OpKind::Load;
  const Type resultType = load ? access->result->type : Type{};

  // The first arm: the pointers recomputed with the arguments 1 (their casts folded to
  // constants) and the terms multiples of V.
  auto fast = [&](Region &r) -> Op * {
    Builder tb(k, r, *access);
    std::map<const Value *, Value *> map = one;
    for (const Value *t : terms) {
      Op *h = tb.create(OpKind::Hint, {const_cast<Value *>(t)}, t->type);
      h->opcode = "multiple_of";
      h->attrs = {vec};
      h->result->name = t->name;
      h->line = access->line;
      h->srcText = termText(t) + " is a multiple of " + vec.str() + " here (the branch's condition)";
      map[t] = h->result;
    }
    auto mapped = [&](Value *v) {
      auto it = map.find(v);
      return it == map.end() ? v : it->second;
    };
    for (const Op *op : slice) {
      std::vector<Value *> ins;
      for (Value *o : op->operands)
        ins.push_back(mapped(o));
      const Op *folded = ins.size() == 1 ? defOf(ins[0], OpKind::Constant) : nullptr;
      Op *c;
      if (op->kind == OpKind::Cast && folded && op->result->type.isScalar()) {
        c = tb.create(OpKind::Constant, {}, op->result->type);
        c->attrs = folded->attrs;
      } else {
        c = tb.clone(*op, ins, op->result->type);
      }
      c->result->name = op->result->name;
      map[op->result] = c->result;
    }
    std::vector<Value *> ins;
    for (Value *o : access->operands)
      ins.push_back(mapped(o));
    return tb.clone(*access, ins, resultType);
  };
  // The other arm: the access as it was.
  auto general = [&](Region &r) -> Op * {
    return Builder(k, r, *access).clone(*access, access->operands, resultType);
  };

  Op *branch;
  if (!facts || terms.empty()) {
    if (!facts)
      termsCond(before);
    branch = versionIf(k, before, *access, facts ? nullptr : cond, factCond,
                       facts ? factCond : says, fast, general);
  } else {
    auto checked = [&](Region &r) -> Op * {
      Builder tb(k, r, *access);
      termsCond(tb);
      return versionIf(k, tb, *access, cond, "", says, fast, general);
    };
    branch = versionIf(k, before, *access, nullptr, factCond, factCond, checked, general);
  }
  if (load)
    replaceAllUses(k, access->result, branch->results[0]);
  eraseOp(k, access);
}

/// The loads and stores of global tiles in `r`, except loads in a loop with a tl::dot: those
/// are the pipeline's and the copy engine's, which read the pointers as written.
void collectAccesses(Region &r, bool inDotLoop, std::vector<Op *> &out) {
  for (auto &op : r.ops) {
    const bool store = op->kind == OpKind::Store, load = op->kind == OpKind::Load;
    const Type &ptrs = (store || load) ? op->operands[0]->type : Type{};
    if ((store || (load && !inDotLoop)) && ptrs.isTile() && ptrs.pointer && !ptrs.shared)
      out.push_back(op.get());
    for (auto &inner : op->regions) {
      bool dotLoop = inDotLoop;
      if (!dotLoop && (op->kind == OpKind::For || op->kind == OpKind::While))
        walkOps(*inner, [&](Op &x) { dotLoop = dotLoop || x.kind == OpKind::Dot; });
      collectAccesses(*inner, dotLoop, out);
    }
  }
}

} // namespace

void runUnitStrideAccesses(Kernel &k) {
  std::vector<Op *> accesses;
  collectAccesses(k.body, false, accesses);
  for (Op *access : accesses) {
    std::vector<const Value *> args = innerStrides(access->operands[0]);
    if (args.empty())
      continue;
    std::vector<const Value *> terms = unalignedScalarTerms(access->operands[0]);
    std::set<const Value *> from(args.begin(), args.end());
    from.insert(terms.begin(), terms.end());
    std::vector<const Op *> slice;
    if (!sliceFromArgs({access->operands[0]}, from, slice) || slice.empty())
      continue;
    versionAccess(k, access, args, terms, slice);
  }
}

} // namespace tilec
