// tl:: reductions, scans, random numbers and atomics -> tile IR.
//
//   tl::max(row)                   %7 = reduce "max" %5:row : float
//   tl::reduce<0>(t, combine)      %9 = reduce "reduce" %5 { ^(%a, %b) ... yield %c }
//   tl::cumsum<0>(t)               %4 = scan "cumsum" %3 [0] [0] : tile<int, BLOCK>
//   tl::argmax<1>(v)               %6 = reduce "argmax" %5:v [1] : tile<int, BM>
//   tl::rand(seed, offs)           %6 = random "rand" %1:seed, %5:offs : tile<float, BLOCK>
//   tl::atomic_add(p + offs, v, m) %8 = atomic "add" %6, %7, %5 : tile<float, BLOCK>
//   tl::atomic_add(p, v, tl::sem::relaxed, tl::scope::cta)  the same with attrs [0] [0]
#include "frontend/Lowerer.h"

#include <iterator>
#include <optional>
#include <set>

namespace tilec {

using namespace clang;

namespace {
const std::set<std::string> kReductions = {"sum",    "max",    "min",   "xor_sum",
                                           "argmax", "argmin", "reduce"};
const std::set<std::string> kScans = {"cumsum", "cumprod", "associative_scan"};
const std::set<std::string> kRandom = {"rand", "randn", "randint"};
const std::set<std::string> kAtomics = {"atomic_add", "atomic_max", "atomic_min",
                                        "atomic_xchg", "atomic_cas", "atomic_and",
                                        "atomic_or",  "atomic_xor"};

/// An atomic's trailing ordering argument (`tl::sem::relaxed`, `tl::scope::cta`, ...): which of
/// the two it is ("sem" or "scope") and the index of its value in kAtomicSems / kAtomicScopes,
/// or nothing when the argument is not one.
std::optional<std::pair<std::string, int>> orderingArg(const Expr *e) {
  const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto *c = ref ? dyn_cast<EnumConstantDecl>(ref->getDecl()) : nullptr;
  if (!c)
    return std::nullopt;
  const auto *en = dyn_cast<EnumDecl>(c->getDeclContext());
  const auto *ns = en ? dyn_cast<NamespaceDecl>(en->getDeclContext()) : nullptr;
  if (!ns || ns->getName() != "tl")
    return std::nullopt;
  const std::string kind = en->getNameAsString(), name = c->getNameAsString();
  if (kind != "sem" && kind != "scope")
    return std::nullopt;
  auto find = [&](const auto &names) -> std::optional<std::pair<std::string, int>> {
    for (size_t i = 0; i < std::size(names); ++i)
      if (name == names[i])
        return std::make_pair(kind, int(i));
    return std::nullopt;
  };
  return kind == "sem" ? find(kAtomicSems) : find(kAtomicScopes);
}

/// The type a reduction accumulates and returns, as the interpreter (Triton's rules):
/// sums of integers narrower than 32 bits widen to 32 bits keeping their signedness (bool is
/// unsigned); max/min widen 16-bit floats to float and narrow integers to int32; argmax/argmin
/// give int32 indices; xor_sum and custom reductions keep the type. fp8 sums, maxima and
/// minima are float (fp8 computes in float everywhere).
ElemType reductionType(const std::string &op, const ElemType &in) {
  if (op == "argmax" || op == "argmin")
    return ElemType::known(ScalarKind::I32);
  if (!in.isKnown())
    return in;
  if (in.isFp8() && op != "reduce")
    return arithmeticType(in);
  bool narrowInt = (in.isInteger() || in.is(ScalarKind::Bool)) && in.bits() < 32;
  if (op == "sum" && narrowInt)
    return ElemType::known(in.isSigned() ? ScalarKind::I32 : ScalarKind::U32);
  if (op == "max" || op == "min") {
    if (in.is(ScalarKind::F16) || in.is(ScalarKind::BF16))
      return ElemType::known(ScalarKind::F32);
    if (narrowInt)
      return ElemType::known(ScalarKind::I32);
  }
  return in;
}

/// Scans: cumsum as sum (bfloat16 accumulating in float), cumprod bfloat16 in float; fp8
/// scans in float.
ElemType scanType(const std::string &op, const ElemType &in) {
  ElemType t = in.is(ScalarKind::BF16) ? ElemType::known(ScalarKind::F32) : arithmeticType(in);
  return op == "cumsum" ? reductionType("sum", t) : t;
}
} // namespace

bool Lowerer::isTileOpName(const std::string &n) {
  return kReductions.count(n) || kScans.count(n) || kRandom.count(n) || kAtomics.count(n);
}

bool Lowerer::lowerCombine(const Expr *fnExpr, const ElemType &t, Op *op) {
  Callee c = resolveCallee(fnExpr);
  if (!c.helper) {
    error(fnExpr, "the combine function must be a TILEC_FUNC taking two scalars");
    return false;
  }
  if (c.helper->getNumParams() != 2) {
    error(fnExpr, "the combine function must take two arguments");
    return false;
  }
  op->regions.push_back(std::make_unique<Region>());
  Region *r = op->regions.back().get();
  Type scalar{t, false, false, {}};
  for (int i = 0; i < 2; ++i) {
    Value *a = k_.newValue(scalar, c.helper->getParamDecl(unsigned(i))->getNameAsString());
    r->args.push_back(a);
  }
  k_.insertion.push_back(r);
  Value *y = inlineBody(c.helper, r->args, fnExpr);
  if (y)
    y = castTo(y, t, fnExpr);
  k_.insertion.pop_back();
  if (!y) {
    if (!failed_)
      error(fnExpr, "the combine function must return a value");
    return false;
  }
  if (y->type.isTile()) {
    error(fnExpr, "the combine function must return a scalar");
    return false;
  }
  r->yields.push_back(y);
  y->uses++;
  return true;
}

Value *Lowerer::lowerScan(const CallExpr *call, const Callee &c, Value *t, int axis,
                          const SymExpr &reverse) {
  const std::string &n = c.name;
  Value *in = n == "associative_scan" ? t : castTo(t, scanType(n, t->type.elem), call);
  if (!in)
    return nullptr;
  Type type = in->type;
  if (type.shape.size() >= 2 && type.shape[size_t(axis)].isConst(1))
    return in; // every element is its own scan
  // The long axis of a [1, N] or [M, 1] tile: scan it as a rank-1 tile (such tiles often live
  // in a rank-1 or slice layout, which the rank-2 scan does not take).
  bool unit = type.shape.size() == 2 && type.shape[size_t(1 - axis)].isConst(1);
  if (unit) {
    Type flat{type.elem, false, false, {type.shape[size_t(axis)]}};
    in = emit(OpKind::Reshape, {in}, flat, call)->result;
  }
  Op *op = emit(OpKind::Scan, {in}, in->type, call);
  op->opcode = n;
  op->attrs = {reverse, SymExpr(unit ? 0 : axis)};
  if (n == "associative_scan" && !lowerCombine(call->getArg(1), in->type.elem, op))
    return nullptr;
  if (!unit)
    return op->result;
  Op *e = emit(OpKind::ExpandDims, {op->result}, type, call);
  e->attrs = {SymExpr(1 - axis)};
  return e->result;
}

Value *Lowerer::lowerWholeReduction(const CallExpr *call, const Callee &c, Value *t,
                                    const SymExpr &keepDims) {
  const std::string &n = c.name;
  bool custom = n == "reduce";
  // Along axis 1 (each row), then along axis 0 (the rows' results, in row order).
  Value *v = t;
  for (int64_t axis : {1, 0}) {
    ElemType rt = reductionType(n, v->type.elem);
    Value *in = castTo(v, rt, call);
    Type resultType{rt, false, false, in->type.shape};
    resultType.shape.erase(resultType.shape.begin() + axis);
    Op *op = emit(OpKind::Reduce, {in}, resultType, call);
    op->opcode = n;
    op->attrs = {SymExpr(axis == 1 ? 1 : 0)};
    if (custom && !lowerCombine(call->getArg(1), in->type.elem, op))
      return nullptr;
    v = op->result;
  }
  if (!keepDims.isConst(0)) // keep_dims: a [1, 1] tile
    return emit(OpKind::Splat, {v}, Type{v->type.elem, false, false, {SymExpr(1), SymExpr(1)}},
                call)
        ->result;
  return v;
}

Value *Lowerer::lowerTileOp(const CallExpr *call, const Callee &c) {
  const std::string &n = c.name;
  unsigned nargs = givenArgs(call); // defaulted arguments (the call site, a mask) are not given
  auto templateSym = [&](size_t i, int64_t dflt) -> std::optional<SymExpr> {
    if (c.templateArgs.size() <= i)
      return SymExpr(dflt);
    return templateArgSym(c.templateArgs[i]);
  };

  if (kReductions.count(n) || kScans.count(n)) {
    bool custom = n == "reduce" || n == "associative_scan";
    if (nargs != (custom ? 2u : 1u)) {
      std::string hint;
      // Triton's positional axis, `tl.sum(x, 0)`: the axis is a template argument here.
      const Expr *second = nargs == 2 ? call->getArg(1) : nullptr;
      if (!custom && second && !second->isValueDependent() && !second->isTypeDependent())
        if (auto axis = second->getIntegerConstantExpr(ctx_))
          hint = "; the axis is a template argument: tl::" + n + "<" +
                 std::to_string(axis->getExtValue()) + ">(x)";
      error(call, "tl::" + n + " takes " + (custom ? "a tile and a combine function" : "one tile") +
                      hint);
      return nullptr;
    }
    Value *t = lowerExpr(call->getArg(0));
    if (!t)
      return nullptr;
    if (t->type.isScalar() || t->type.pointer) {
      error(call->getArg(0), "tl::" + n + " needs a tile of values");
      return nullptr;
    }
    auto axis = templateSym(0, 0);
    auto flag = templateSym(1, 0); // keep_dims for reductions, reverse for scans
    if (!axis || !flag)
      return nullptr;
    size_t rank = t->type.shape.size();
    bool hasAxis = !c.templateArgs.empty();
    bool allAxes = !hasAxis || (axis->isConst() && axis->value() == int64_t(1) << 30);
    bool arg = n == "argmax" || n == "argmin";
    // Every element of a rank-2 tile, by value (sum, max, min, xor_sum, prod, reduce): its
    // rows reduced, then the row results (row-major order kept, so a combine need only be
    // associative); both steps stay in registers, with no relayout (below, once checked).
    const bool wholeRank2 = rank == 2 && kReductions.count(n) && !arg && allAxes;
    if (wholeRank2)
      axis = SymExpr(0);
    // Every element of a rank-3 tile, or the index of one in a rank-2 tile (no axis, or
    // tl::all_axes): the tile flattened in row-major order and reduced as a rank-1 tile
    // (argmax / argmin give the flat index).
    Type wholeShape;
    if (rank >= 2 && kReductions.count(n) && allAxes && !wholeRank2) {
      wholeShape = t->type;
      Type flat = t->type;
      SymExpr count = t->type.shape[0];
      for (size_t d = 1; d < rank; ++d)
        count = count * t->type.shape[d];
      flat.shape = {count};
      t = emit(OpKind::Reshape, {t}, flat, call)->result;
      axis = SymExpr(0);
      rank = 1;
    }
    if (!axis->isConst() || axis->value() < 0 || size_t(axis->value()) >= rank) {
      std::string others = rank > 2 ? ", 1 or 2" : rank > 1 ? " or 1" : "";
      error(call, "tl::" + n + ": the axis must be a dimension of the tile (0" + others + ")");
      return nullptr;
    }
    if (kScans.count(n))
      return lowerScan(call, c, t, int(axis->value()), *flag);
    bool unitDim = false;
    for (auto &d : t->type.shape)
      unitDim |= rank >= 2 && d.isConst(1);
    if (unitDim) {
      error(call, "tl::" + n + " of a " + t->type.shapeStr() +
                      " tile is not supported by the translator yet; reduce the rank-1 tile "
                      "before tl::expand_dims");
      return nullptr;
    }
    if (n == "xor_sum" && !t->type.elem.isInteger()) {
      error(call->getArg(0), "tl::xor_sum needs an integer tile");
      return nullptr;
    }
    if (wholeRank2)
      return lowerWholeReduction(call, c, t, *flag);
    if (kReductions.count(n) && rank >= 2) {
      ElemType rt = reductionType(n, t->type.elem);
      // Arg reductions compare the values as given (fp8 as float, the same order).
      Value *in = castTo(t, arg ? arithmeticType(t->type.elem) : rt, call);
      Type resultType{rt, false, false, t->type.shape};
      resultType.shape.erase(resultType.shape.begin() + axis->value());
      Op *op = emit(OpKind::Reduce, {in}, resultType, call);
      op->opcode = n;
      op->attrs = {*axis};
      if (custom && !lowerCombine(call->getArg(1), in->type.elem, op))
        return nullptr;
      if (!flag->isConst(0)) { // keep_dims: [M, 1] or [1, N]
        Type kt = resultType;
        kt.shape.insert(kt.shape.begin() + axis->value(), SymExpr(1));
        Op *e = emit(OpKind::ExpandDims, {op->result}, kt, call);
        e->attrs = {*axis};
        return e->result;
      }
      return op->result;
    }
    if (kReductions.count(n)) {
      ElemType rt = reductionType(n, t->type.elem);
      Value *in = castTo(t, arg ? arithmeticType(t->type.elem) : rt, call);
      Op *op = emit(OpKind::Reduce, {in}, Type{rt, false, false, {}}, call);
      op->opcode = n;
      op->attrs = {*axis};
      if (custom && !lowerCombine(call->getArg(1), in->type.elem, op))
        return nullptr;
      if (!flag->isConst(0) && !wholeShape.shape.empty()) // keep_dims: a [1, 1(, 1)] tile
        return emit(OpKind::Splat, {op->result},
                    Type{rt, false, false,
                         std::vector<SymExpr>(wholeShape.shape.size(), SymExpr(1))},
                    call)
            ->result;
      if (!flag->isConst(0)) // keep_dims: a [1] tile
        return emit(OpKind::Splat, {op->result}, Type{rt, false, false, {SymExpr(1)}}, call)
            ->result;
      return op->result;
    }
  }

  if (kRandom.count(n)) {
    if (nargs != 2) {
      error(call, "tl::" + n + " takes a seed and offsets");
      return nullptr;
    }
    Value *seed = lowerExpr(call->getArg(0));
    Value *offs = lowerExpr(call->getArg(1));
    if (!seed || !offs)
      return nullptr;
    if (seed->type.isTile() || !seed->type.elem.isInteger()) {
      error(call->getArg(0), "the seed must be an integer scalar");
      return nullptr;
    }
    if (!offs->type.elem.isInteger() || offs->type.pointer) {
      error(call->getArg(1), "the offsets must be integers");
      return nullptr;
    }
    ElemType rt = ElemType::known(n == "randint" ? ScalarKind::U32 : ScalarKind::F32);
    Op *op = emit(OpKind::Random, {seed, offs}, Type{rt, false, false, offs->type.shape}, call);
    op->opcode = n;
    return op->result;
  }

  if (kAtomics.count(n)) {
    // Trailing orderings are not operands: they go on the op (attrs: sem, scope).
    int sem = 3, scope = 1; // acq_rel at GPU scope, Triton's default
    bool ordered = false;
    while (nargs > 2) {
      auto o = orderingArg(call->getArg(nargs - 1));
      if (!o)
        break;
      (o->first == "sem" ? sem : scope) = o->second;
      ordered = true;
      --nargs;
    }
    bool cas = n == "atomic_cas";
    unsigned lo = cas ? 3 : 2, hi = cas ? 3 : 3;
    if (nargs < lo || nargs > hi) {
      error(call, cas ? "tl::atomic_cas takes pointers, compare values and new values"
                      : "tl::" + n + " takes pointers, values and an optional mask");
      return nullptr;
    }
    Value *ptrs = lowerExpr(call->getArg(0));
    if (!ptrs)
      return nullptr;
    if (!ptrs->type.pointer || ptrs->type.pointeeConst) {
      error(call->getArg(0), "tl::" + n + " needs pointers to non-const values");
      return nullptr;
    }
    std::vector<Value *> ops = {ptrs};
    for (unsigned i = 1; i < (cas ? 3u : 2u); ++i) {
      Value *v = castTo(lowerExpr(call->getArg(i)), ptrs->type.elem, call->getArg(i));
      if (!v)
        return nullptr;
      ops.push_back(v);
    }
    const bool masked = !cas && nargs == 3;
    if (masked) {
      Value *mask = lowerExpr(call->getArg(2));
      if (!boolMask(mask, call->getArg(2)))
        return nullptr;
      ops.push_back(mask);
    }
    // Pointers, values and mask broadcast together, as in the interpreter: a plain pointer
    // with a tile of values (or a tile mask) updates its one location once per lane.
    const Value *shaped = nullptr;
    for (size_t i = 0; i < ops.size(); ++i) {
      if (!ops[i]->type.isTile())
        continue;
      if (!shaped) {
        shaped = ops[i];
      } else if (!sameShape(ops[i]->type.shape, shaped->type.shape)) {
        const char *what = i == 0 ? "pointer" : masked && i + 1 == ops.size() ? "mask" : "value";
        error(call->getArg(unsigned(i)), std::string(what) + " shape " +
                                             ops[i]->type.shapeStr() + " differs from " +
                                             shaped->type.shapeStr());
        return nullptr;
      }
    }
    if (shaped)
      for (Value *&x : ops)
        if (x->type.isScalar())
          x = emit(OpKind::Splat, {x}, Type{x->type.elem, x->type.pointer, x->type.pointeeConst,
                                            shaped->type.shape},
                   call)
                  ->result;
    ptrs = ops[0];
    const ElemType &e = ptrs->type.elem;
    bool integer = e.is(ScalarKind::I32) || e.is(ScalarKind::U32) || e.is(ScalarKind::I64) ||
                   e.is(ScalarKind::U64);
    bool bitwise = n == "atomic_and" || n == "atomic_or" || n == "atomic_xor";
    bool ok = integer || (!bitwise && e.is(ScalarKind::F32)) ||
              (e.is(ScalarKind::F64) && (n == "atomic_add" || n == "atomic_xchg")) ||
              ((e.is(ScalarKind::F16) || e.is(ScalarKind::BF16)) && n == "atomic_add");
    // A template element type is checked where the kernel is compiled (the device overloads'
    // static_asserts, and the interpreter's).
    if (!ok && e.isKnown()) {
      error(call, "tl::" + n + " is not available for " + e.cuda() + " elements" +
                      (bitwise ? " (32/64-bit integers only)"
                               : "; accumulate in float, or int32/int64"));
      return nullptr;
    }
    Op *op = emit(OpKind::Atomic, ops, Type{e, false, false, ptrs->type.shape}, call);
    op->opcode = n.substr(7); // "add", "max", ...
    if (ordered && (sem != 3 || scope != 1))
      op->attrs = {SymExpr(sem), SymExpr(scope)};
    return op->result;
  }
  return nullptr;
}

} // namespace tilec
