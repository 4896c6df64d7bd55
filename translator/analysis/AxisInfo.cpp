#include "analysis/AxisInfo.h"

#include "ir/Rewriter.h"

namespace tilec {

std::string div16FactName(const KernelParam &p) {
  return p.name + (p.type.pointer ? "_aligned" : "_div16");
}

namespace {

const SymExpr kAll(SymExpr::kUnbounded);

/// Info of an operand as seen by a tile op: scalars are constant across the tile.
AxisInfo operandInfo(const Value *v) {
  AxisInfo i = v->info;
  if (v->type.isScalar()) {
    i.contiguity = 1;
    i.constancy = kAll;
  }
  return i;
}

// Facts are about the last (contiguous) dimension of a tile.
SymExpr tileSize(const Value *v) { return v->type.isTile() ? v->type.shape.back() : kAll; }

/// Contiguity of `x * factor` for a compile-time `factor`: x's runs when it is 1.
SymExpr unitFactorContiguity(const SymExpr &factor, const SymExpr &runs) {
  if (factor.isConst())
    return factor.isConst(1) ? runs : SymExpr(1);
  if (factor.str().find_first_of(".\"'") != std::string::npos)
    return 1; // a floating or character literal is not an integer stride
  return symSelect("(" + factor.str() + ") == 1", runs, 1);
}

/// The literal value of an integer constant operand, or 0.
int64_t constantValue(const Value *v) {
  const Op *c = v->def;
  if (!c || c->kind != OpKind::Constant || c->attrs.empty() || !c->attrs[0].isConst() ||
      !v->type.elem.isInteger())
    return 0;
  return c->attrs[0].value();
}

bool isPow2Constant(const Value *v) {
  int64_t c = constantValue(v);
  return c > 0 && (c & (c - 1)) == 0;
}

/// tl::where(c, a, b): a value of a or of b, so what both promise; runs stay runs where the
/// condition is constant over them.
AxisInfo selectInfo(const Op &op) {
  AxisInfo c = operandInfo(op.operands[0]), a = operandInfo(op.operands[1]),
           b = operandInfo(op.operands[2]), r;
  r.divisibility = symGcd(a.divisibility, b.divisibility);
  r.constancy = symGcd(c.constancy, symGcd(a.constancy, b.constancy));
  r.contiguity = symGcd(c.constancy, symGcd(a.contiguity, b.contiguity));
  return r;
}

AxisInfo binaryInfo(const Op &op) {
  AxisInfo a = operandInfo(op.operands[0]), b = operandInfo(op.operands[1]), r;
  const std::string &o = op.opcode;
  r.constancy = symGcd(a.constancy, b.constancy);
  if (o == "+") {
    r.contiguity = symMax(symGcd(a.contiguity, b.constancy), symGcd(a.constancy, b.contiguity));
    r.divisibility = symGcd(a.divisibility, b.divisibility);
  } else if (o == "-") {
    r.contiguity = symGcd(a.contiguity, b.constancy);
    r.divisibility = symGcd(a.divisibility, b.divisibility);
  } else if (o == "*") {
    r.divisibility = a.divisibility * b.divisibility;
    // Times a compile-time 1 (a unit stride given as a template parameter) keeps the runs.
    if (const Op *c = op.operands[1]->def; c && c->kind == OpKind::Constant && !c->attrs.empty())
      r.contiguity = unitFactorContiguity(c->attrs[0], a.contiguity);
    else if (const Op *c0 = op.operands[0]->def;
             c0 && c0->kind == OpKind::Constant && !c0->attrs.empty())
      r.contiguity = unitFactorContiguity(c0->attrs[0], b.contiguity);
  } else if (o == "/" && isPow2Constant(op.operands[1])) {
    // A value divisible by D (a power of two) divided by 2^k is divisible by D / 2^k when
    // 2^k <= D, else by 1: D / min(D, 2^k), the min being the gcd of powers of two. `hd / 2`
    // (half a head) stays a multiple of what hd's factor allows.
    SymExpr c(constantValue(op.operands[1]));
    r.divisibility = a.divisibility / symGcd(a.divisibility, c);
  } else if (o == "%" && op.operands[1]->type.isScalar()) {
    // Runs stay consecutive between multiples of the divisor: keep the aligned sub-runs.
    SymExpr aligned = symGcd(a.divisibility, b.divisibility);
    r.contiguity = symGcd(a.contiguity, aligned);
    r.divisibility = aligned;
  } else if (o == "<" || o == "<=" || o == ">" || o == ">=" || o == "==" || o == "!=") {
    // A contiguous run compared with a value constant over it flips at most once, at a
    // boundary both sides' divisibility respect.
    if (op.operands[1]->type.isScalar() || b.constancy.isConst(SymExpr::kUnbounded))
      r.constancy =
          symMax(r.constancy, symGcd(symGcd(a.contiguity, a.divisibility), b.divisibility));
    else if (op.operands[0]->type.isScalar())
      r.constancy =
          symMax(r.constancy, symGcd(symGcd(b.contiguity, b.divisibility), a.divisibility));
  }
  return r;
}

/// What holds for every iteration's value of a loop's carried tile `arg`: its initial value's
/// facts, when each iteration keeps it or adds scalars to it (a pointer that advances, once or
/// in several steps). Otherwise nothing, except that a pointer stays aligned to its element.
AxisInfo carriedInfo(const Value *arg, const Value *init, const Value *next) {
  if (next == arg)
    return init->info;
  SymExpr elemBytes = arg->type.elem.bits() ? SymExpr(arg->type.elem.bits() / 8)
                                            : SymExpr::expr(arg->type.elem.sizeofExpr(), true);
  AxisInfo unknown;
  if (arg->type.pointer)
    unknown.divisibility = elemBytes;
  AxisInfo r = init->info;
  for (const Value *v = next; v != arg;) {
    const Op *step = v->def;
    if (!step || step->operands.size() != 2 || !step->operands[1]->type.isScalar())
      return unknown;
    const AxisInfo &s = step->operands[1]->info;
    if (step->kind == OpKind::AddPtr) {
      if (!s.divisibility.isConst(SymExpr::kUnbounded))
        r.divisibility = symGcd(r.divisibility, s.divisibility * elemBytes);
    } else if (step->kind == OpKind::Binary && (step->opcode == "+" || step->opcode == "-")) {
      r.divisibility = symGcd(r.divisibility, s.divisibility);
    } else {
      return unknown;
    }
    v = step->operands[0];
  }
  return r;
}

void analyzeOnce(Kernel &k) {
  walkOps(k, [&](Op &op) {
    // Values defined by control flow are not analyzed (nothing known), except a loop's
    // induction variable: divisible as its start and step are.
    if (op.kind == OpKind::For) {
      Value *iv = op.regions[0]->args[0];
      iv->info.divisibility =
          symGcd(op.operands[0]->info.divisibility, op.operands[2]->info.divisibility);
      iv->info.constancy = kAll;
      const Region &body = *op.regions[0];
      for (size_t j = 0; j < op.results.size(); ++j) {
        if (body.yields.size() != op.results.size())
          break;
        body.args[j + 1]->info =
            carriedInfo(body.args[j + 1], op.operands[3 + j], body.yields[j]);
        // A scalar after the loop is its start or its last advance: the same facts (the start
        // of a loop that resumes where another stopped, split-ragged-loops' `<i>_next`).
        if (op.results[j]->type.isScalar())
          op.results[j]->info = body.args[j + 1]->info;
      }
    }
    for (auto &r : op.regions)
      for (Value *a : r->args)
        if (a->type.isScalar())
          a->info.constancy = kAll;
    // A branch's results: what holds in both arms, or in the arm an `if constexpr` takes in
    // each specialization (Unsloth's `dX = dY` for in-place gradients keeps dY's alignment).
    // The arms are analyzed after this op: the second pass sees them.
    if (op.kind == OpKind::If && op.regions.size() == 2) {
      const Region &thenArm = *op.regions[0], &elseArm = *op.regions[1];
      for (size_t j = 0; j < op.results.size(); ++j) {
        if (j >= thenArm.yields.size() || j >= elseArm.yields.size())
          break;
        const AxisInfo &a = thenArm.yields[j]->info, &b = elseArm.yields[j]->info;
        AxisInfo r;
        if (!op.constexprCond.empty()) {
          r.contiguity = symSelect(op.constexprCond, a.contiguity, b.contiguity);
          r.divisibility = symSelect(op.constexprCond, a.divisibility, b.divisibility);
          r.constancy = symSelect(op.constexprCond, a.constancy, b.constancy);
        } else {
          r.contiguity = symMin(a.contiguity, b.contiguity);
          r.divisibility = symGcd(a.divisibility, b.divisibility);
          r.constancy = symMin(a.constancy, b.constancy);
        }
        op.results[j]->info = r;
      }
    }
    for (Value *res : op.results)
      if (res->type.isScalar())
        res->info.constancy = kAll;
    if (!op.result)
      return;
    Value *res = op.result;
    AxisInfo r; // default: nothing known
    switch (op.kind) {
    case OpKind::Param: {
      const KernelParam &p = k.params[size_t(op.attrs[0].value())];
      std::string fact = div16FactName(p);
      if (p.type.pointer)
        r.divisibility =
            symSelect(fact, 16,
                      p.type.elem.bits() ? SymExpr(p.type.elem.bits() / 8)
                                         : SymExpr::expr(p.type.elem.sizeofExpr(), true));
      else if (p.type.elem.isInteger())
        r.divisibility = symSelect(fact, 16, 1);
      break;
    }
    case OpKind::Constant:
      if (res->type.elem.isInteger())
        r.divisibility = symPow2Factor(op.attrs[0]);
      break;
    case OpKind::Arange:
      r.contiguity = op.attrs[1] - op.attrs[0];
      r.divisibility = symPow2Factor(op.attrs[0]);
      break;
    case OpKind::Splat:
      r.divisibility = op.operands[0]->info.divisibility;
      r.constancy = tileSize(res);
      break;
    case OpKind::Broadcast:
      // Growing the last dimension repeats each value along it; growing another keeps runs.
      if (op.operands[0]->type.shape.back().isConst(1)) {
        r.divisibility = op.operands[0]->info.divisibility;
        r.constancy = tileSize(res);
      } else {
        r = op.operands[0]->info;
      }
      break;
    case OpKind::ExpandDims:
      if (op.attrs[0].value() < int64_t(op.operands[0]->type.shape.size())) {
        r = op.operands[0]->info; // [N] -> [1, N]: the last dimension is unchanged
      } else {
        // [M] -> [M, 1]: every element starts a run of its own, so each must be divisible.
        const AxisInfo &in = op.operands[0]->info;
        r.divisibility = in.contiguity.isConst(1) ? in.divisibility : SymExpr(1);
      }
      break;
    case OpKind::Binary:
      r = binaryInfo(op);
      break;
    case OpKind::Select:
      r = selectInfo(op);
      break;
    case OpKind::Cast:
      if (res->type.elem.isInteger() && op.operands[0]->type.elem.isInteger())
        r = op.operands[0]->info;
      break;
    case OpKind::AddPtr: {
      AxisInfo p = operandInfo(op.operands[0]), o = operandInfo(op.operands[1]);
      SymExpr elemBytes = SymExpr::expr(res->type.elem.sizeofExpr(), true);
      if (res->type.elem.bits())
        elemBytes = SymExpr(res->type.elem.bits() / 8);
      r.contiguity = symMax(symGcd(o.contiguity, p.constancy), symGcd(p.contiguity, o.constancy));
      r.divisibility = o.divisibility.isConst(SymExpr::kUnbounded)
                           ? p.divisibility
                           : symGcd(p.divisibility, o.divisibility * elemBytes);
      r.constancy = symGcd(p.constancy, o.constancy);
      break;
    }
    case OpKind::Hint:
      r = op.operands[0]->info;
      if (op.opcode == "multiple_of")
        r.divisibility = symMax(r.divisibility, op.attrs[0]);
      else
        r.contiguity = symMax(r.contiguity, op.attrs[0]);
      break;
    default:
      break;
    }
    // Any valid T* is aligned to sizeof(T) (parameters and offsets already account for it).
    if (res->type.pointer && (op.kind == OpKind::Select || op.kind == OpKind::Load))
      r.divisibility = symMax(
          r.divisibility, res->type.elem.bits() ? SymExpr(res->type.elem.bits() / 8)
                                                : SymExpr::expr(res->type.elem.sizeofExpr(), true));
    if (res->type.isScalar()) {
      r.contiguity = 1;
      r.constancy = kAll;
    } else {
      // Runs never exceed the tile.
      r.contiguity = symMin(r.contiguity, tileSize(res));
      r.constancy = symMin(r.constancy, tileSize(res));
    }
    res->info = r;
  });
}

} // namespace

SymExpr assuredRuns(const SymExpr &runs) {
  if (runs.fn() == "?:")
    return runs.cond().size() > 5 && runs.cond().compare(runs.cond().size() - 5, 5, " == 1") == 0
               ? assuredRuns(*runs.rhs())
               : runs;
  if (runs.fn() == "tilec::cmin")
    return symMin(assuredRuns(*runs.lhs()), assuredRuns(*runs.rhs()));
  if (runs.fn() == "tilec::gcd")
    return symGcd(assuredRuns(*runs.lhs()), assuredRuns(*runs.rhs()));
  return runs;
}

void runAxisInfo(Kernel &k) {
  // Twice: a loop's carried values depend on how its body advances them, which the first
  // pass computes (facts only flow forward otherwise).
  for (int pass = 0; pass < 2; ++pass)
    analyzeOnce(k);
}

} // namespace tilec
