#include "transforms/SplitRaggedLoops.h"

#include "ir/Rewriter.h"

#include <algorithm>
#include <map>
#include <set>

namespace tilec {

namespace {

bool isSignedInt(const Type &t) {
  return !t.pointer && t.elem.isKnown() && t.elem.isInteger() && t.elem.isSigned();
}

/// Ops that give a tile the values of their only operand (spread or laid out differently).
bool isSpread(OpKind k) {
  return k == OpKind::Splat || k == OpKind::Broadcast || k == OpKind::ExpandDims ||
         k == OpKind::ConvertLayout;
}

/// Whether every element of `v` is at most a constant (`hi`), whatever the iteration: the
/// constants and aranges block offsets are made of.
bool boundedAbove(const Value *v, SymExpr &hi) {
  const Op *d = v->def;
  if (!d || !isSignedInt(v->type))
    return false;
  if (d->kind == OpKind::Constant && d->attrs[0].isConst()) {
    hi = d->attrs[0];
    return true;
  }
  if (d->kind == OpKind::Arange) {
    hi = d->attrs[1] - 1;
    return true;
  }
  if (isSpread(d->kind))
    return boundedAbove(d->operands[0], hi);
  SymExpr a, b;
  if (d->kind == OpKind::Binary && d->opcode == "+" && boundedAbove(d->operands[0], a) &&
      boundedAbove(d->operands[1], b)) {
    hi = a + b;
    return true;
  }
  return false;
}

/// A value whose elements are all at most scale * i + offset + hi, i the induction variable.
struct Ranged {
  SymExpr scale = 1;
  Value *offset = nullptr; // a loop-invariant scalar (see invariant()), or none
  SymExpr hi = 0;
};

/// A compare `e < bound` of the body, all true while scale * i + offset + hi < bound.
struct RaggedCompare {
  Op *op;
  Ranged e;
  Value *bound;
};

class Splitter {
public:
  Splitter(Kernel &k, Op &loop)
      : k_(k), loop_(loop), iv_(loop.regions[0]->args[0]), dotLoop_(holdsDot(*loop.regions[0])) {
    collectDefined(*loop.regions[0]);
  }

  /// What the values made for the split are named after (the emitter's name for `for`).
  std::string ivName() const { return iv_->name.empty() ? "k" : iv_->name; }

  /// Splits the loop when some compare in it qualifies; false when none does.
  bool run() {
    std::vector<RaggedCompare> compares;
    findCompares(*loop_.regions[0], compares);
    // In a loop with a tl::dot the masks of loads and stores stay: the loads are pipelined,
    // and a copy masked exactly to the matrix is one the copy engine can take (tma-copies).
    // The compares that mask the tiles computed (attention's `cols < N` on the scores) fold.
    if (dotLoop_)
      compares.erase(std::remove_if(compares.begin(), compares.end(),
                                    [&](const RaggedCompare &c) {
                                      return masksAccess(*loop_.regions[0], c.op->result);
                                    }),
                     compares.end());
    if (compares.empty())
      return false;
    Value *end = unmaskedEnd(compares);
    Op *first = cloneLoop(end);
    // Qualifying compares of the first copy: replaced by `true`, and what they fed folded.
    std::vector<Value *> trues;
    for (auto &compare : compares) {
      Value *copy = cloneMap_.at(compare.op->result);
      Value *t = splatTrue(copy->def, copy->type);
      replaceAllUses(k_, copy, t);
      eraseIfDead(k_, copy);
      trues.push_back(t);
    }
    foldTrue(*first->regions[0], trues);
    return true;
  }

private:
  void collectDefined(const Region &r) {
    for (Value *a : r.args)
      defined_.insert(a);
    for (auto &op : r.ops) {
      if (op->result)
        defined_.insert(op->result);
      for (Value *v : op->results)
        defined_.insert(v);
      for (auto &sub : op->regions)
        collectDefined(*sub);
    }
  }

  /// An integer scalar with the same value in every iteration.
  bool invariantScalar(const Value *v) const { return isSignedInt(v->type) && invariant(v); }

  /// A scalar defined before the loop, or computed in it by register arithmetic from such
  /// values (`n - 1` written in the body).
  bool invariant(const Value *v) const {
    if (!v->type.isScalar())
      return false;
    if (!defined_.count(v))
      return true;
    const Op *d = v->def;
    if (!d || !isRegisterArithmetic(d->kind))
      return false;
    for (const Value *o : d->operands)
      if (!invariant(o))
        return false;
    return true;
  }

  /// `v` (an invariant scalar) as a value before the loop: what the body computes is
  /// computed again there.
  Value *hoisted(Builder &b, Value *v) {
    if (!defined_.count(v))
      return v;
    Value *&h = hoisted_[v];
    if (!h) {
      std::vector<Value *> operands;
      for (Value *o : v->def->operands)
        operands.push_back(hoisted(b, o));
      h = b.clone(*v->def, operands, v->type)->result;
      h->name = v->name;
    }
    return h;
  }

  bool ranged(Value *v, Ranged &r) const {
    if (v == iv_) {
      r = Ranged{};
      return true;
    }
    const Op *d = v->def;
    if (!d || !isSignedInt(v->type))
      return false;
    if (isSpread(d->kind))
      return ranged(d->operands[0], r);
    if (d->kind != OpKind::Binary)
      return false;
    Value *a = d->operands[0], *b = d->operands[1];
    if (d->opcode == "*") {
      for (int side = 0; side < 2; ++side, std::swap(a, b)) {
        const Op *c = b->def;
        if (a == iv_ && c && c->kind == OpKind::Constant && isSignedInt(b->type)) {
          r = Ranged{};
          r.scale = c->attrs[0];
          return true;
        }
      }
      return false;
    }
    if (d->opcode != "+")
      return false;
    for (int side = 0; side < 2; ++side, std::swap(a, b)) {
      SymExpr hi;
      if (!ranged(a, r))
        continue;
      if (boundedAbove(b, hi)) {
        r.hi = r.hi + hi;
        return true;
      }
      if (!r.offset && invariantScalar(b)) {
        r.offset = b;
        return true;
      }
    }
    return false;
  }

  /// Whether `e < x` is all true while rg's bound holds (`x` becomes that bound): e ranged
  /// and x invariant, or, as kernels that advance their pointers write it, e a tile of known
  /// upper bound and x = `n - s` with n invariant and s ranged (`arange < n - i`).
  bool rangedCompare(Value *e, Value *&x, Ranged &rg) const {
    if (invariantScalar(x))
      return ranged(e, rg);
    SymExpr hi;
    const Op *d = x->def;
    if (!d || d->kind != OpKind::Binary || d->opcode != "-" || !boundedAbove(e, hi) ||
        !invariantScalar(d->operands[0]) || !ranged(d->operands[1], rg))
      return false;
    rg.hi = rg.hi + hi;
    x = d->operands[0];
    return true;
  }

  /// `e < x` with e ranged and x an invariant integer scalar: the compares to fold (nested
  /// ifs included).
  void findCompares(Region &r, std::vector<RaggedCompare> &out) {
    for (auto &op : r.ops) {
      for (auto &sub : op->regions)
        findCompares(*sub, out);
      if (op->kind != OpKind::Binary || !op->result->type.isTile())
        continue;
      const std::string &o = op->opcode;
      bool less = o == "<" || o == "<=", greater = o == ">" || o == ">=";
      if (!less && !greater)
        continue;
      Value *e = op->operands[less ? 0 : 1], *x = op->operands[less ? 1 : 0];
      Ranged rg;
      if (!rangedCompare(e, x, rg))
        continue;
      // e <= x is e < x + 1.
      if (o == "<=" || o == ">=")
        rg.hi = rg.hi - 1;
      out.push_back({op.get(), rg, x});
    }
  }

  Value *constant(Builder &b, const SymExpr &value, ScalarKind kind) {
    Op *c = b.create(OpKind::Constant, {}, Type::scalarOf(kind));
    c->attrs.push_back(value);
    return c->result;
  }
  /// A constant of the end's arithmetic (made once per loop).
  Value *endConstant(Builder &b, const SymExpr &value) {
    Value *&c = endConstants_[value.str()];
    if (!c)
      c = constant(b, value, ScalarKind::I64);
    return c;
  }
  Value *binary(Builder &b, const char *opcode, Value *x, Value *y, ScalarKind kind) {
    Op *op = b.create(OpKind::Binary, {x, y}, Type::scalarOf(kind));
    op->opcode = opcode;
    return op->result;
  }
  Value *wide(Builder &b, Value *v) {
    v = hoisted(b, v);
    if (v->type.elem.is(ScalarKind::I64))
      return v;
    Value *&w = widened_[v];
    if (!w) {
      w = b.create(OpKind::Cast, {v}, Type::scalarOf(ScalarKind::I64))->result;
      if (!v->name.empty())
        w->name = v->name + "_wide";
    }
    return w;
  }

  /// The first iteration value for which some compare may be false (bounded by the loop's
  /// own end and by its start), computed before the loop: scale * i + offset + hi < x holds
  /// for every i < ceil((x - offset - hi) / scale).
  Value *unmaskedEnd(const std::vector<RaggedCompare> &compares) {
    Builder b(k_, &loop_);
    const ScalarKind I64 = ScalarKind::I64;
    Value *lo = wide(b, loop_.operands[0]);
    Value *end = wide(b, loop_.operands[1]);
    std::set<std::string> seen;
    for (const RaggedCompare &c : compares) {
      const Ranged &r = c.e;
      Value *x = c.bound;
      std::string key = std::to_string(x->id) + "/" + (r.offset ? std::to_string(r.offset->id) : "") +
                        "/" + r.hi.str() + "/" + r.scale.str();
      if (!seen.insert(key).second)
        continue;
      Value *room = wide(b, x);
      if (r.offset)
        room = binary(b, "-", room, wide(b, r.offset), I64);
      if (!r.hi.isConst(0))
        room = binary(b, "-", room, endConstant(b, r.hi), I64);
      Value *limit = room;
      if (!r.scale.isConst(1)) {
        // ceil(room / scale) for a positive scale and room; otherwise no iteration is sure.
        Value *scale = endConstant(b, r.scale);
        Value *zero = endConstant(b, 0);
        Value *one = endConstant(b, 1);
        Value *sure = binary(b, "&&", binary(b, ">", scale, zero, ScalarKind::Bool),
                             binary(b, ">", room, zero, ScalarKind::Bool), ScalarKind::Bool);
        Value *q = binary(b, "cdiv", room, binary(b, "maximum", scale, one, I64), I64);
        limit = b.create(OpKind::Select, {sure, q, lo}, Type::scalarOf(I64))->result;
      }
      end = binary(b, "minimum", end, limit, I64);
    }
    end = binary(b, "maximum", end, lo, I64);
    if (!iv_->type.elem.is(I64))
      end = b.create(OpKind::Cast, {end}, iv_->type)->result;
    end->name = ivName() + "_unmasked_end";
    return end;
  }

  /// Inserts the first copy of the loop before it, running from its start to `end` and
  /// carrying the iteration it stops at; the loop itself resumes there with what the copy
  /// carried out.
  Op *cloneLoop(Value *end) {
    Builder b(k_, &loop_);
    const size_t carried = loop_.results.size();
    std::vector<Value *> operands = {loop_.operands[0], end, loop_.operands[2]};
    for (size_t i = 0; i < carried; ++i)
      operands.push_back(loop_.operands[3 + i]);
    operands.push_back(loop_.operands[0]); // the iteration after the last one run
    Op *first = b.create(OpKind::For, operands, Type{}, /*hasResult=*/false);
    first->opcode = loop_.opcode;
    // Left rolled: nvcc unrolls the unmasked copy, and the registers of two blocks at once
    // made a streaming loop spill (Liger's KL backward: 0.87x Triton unrolled, 1.01x not).
    first->rolled = true;
    // The CUDA's comments say which copy is which.
    if (!loop_.srcText.empty()) {
      first->srcText = loop_.srcText + (dotLoop_
                                            ? "  [the blocks in which the tiles' masks are all "
                                              "true: unmasked (the loads keep theirs)]"
                                            : "  [the blocks in which every mask is true: unmasked]");
      loop_.srcText += "  [the blocks left: masked]";
    }
    first->carriedNames = loop_.carriedNames;
    first->carriedNames.push_back(ivName() + "_next");
    for (Value *v : loop_.results)
      first->results.push_back(k_.newValue(v->type, v->name));
    Value *next = k_.newValue(iv_->type, ivName() + "_next");
    first->results.push_back(next);

    const Region &body = *loop_.regions[0];
    auto region = std::make_unique<Region>();
    for (Value *a : body.args) {
      Value *c = k_.newValue(a->type, a->name);
      cloneMap_[a] = c;
      region->args.push_back(c);
    }
    region->args.push_back(k_.newValue(iv_->type, ivName() + "_next"));
    cloneRegion(k_, body, *region, cloneMap_);
    first->regions.push_back(std::move(region));
    Region &r = *first->regions[0];
    Builder tail(k_, r, loop_);
    // The carried copy of i advances by the step (it equals i in every iteration): axis-info
    // then knows the second loop's start is as divisible as the first's, and its accesses
    // keep their vector width.
    Op *step = tail.create(OpKind::Binary, {r.args.back(), loop_.operands[2]}, iv_->type);
    step->opcode = "+";
    r.yields.push_back(step->result);
    ++step->result->uses;

    setOperand(&loop_, 0, next);
    for (size_t i = 0; i < carried; ++i)
      setOperand(&loop_, 3 + i, first->results[i]);
    return first;
  }

  Value *splatTrue(Op *anchor, const Type &type) {
    Builder b(k_, anchor);
    Value *t = constant(b, SymExpr::expr("true", true), ScalarKind::Bool);
    Type tile = type;
    tile.elem = ElemType::known(ScalarKind::Bool);
    return b.create(OpKind::Splat, {t}, tile)->result;
  }

  Value *splat(Op *anchor, Value *v, const Type &type) {
    if (v->type.isTile())
      return sameShape(v->type.shape, type.shape) ? v : nullptr;
    return Builder(k_, anchor).create(OpKind::Splat, {v}, type)->result;
  }

  static void usersIn(Region &r, const Value *v, std::vector<Op *> &out) {
    for (auto &op : r.ops) {
      for (const Value *o : op->operands)
        if (o == v) {
          out.push_back(op.get());
          break;
        }
      for (auto &sub : op->regions)
        usersIn(*sub, v, out);
    }
  }

  void dropOperandsFrom(Op *op, size_t from) {
    std::vector<Value *> dropped(op->operands.begin() + long(from), op->operands.end());
    op->operands.resize(from);
    for (Value *v : dropped) {
      --v->uses;
      eraseIfDead(k_, v);
    }
  }

  /// Whether `v` reaches the mask of a load or store in `r`, through logic and spreads.
  static bool masksAccess(Region &r, Value *v) {
    std::vector<Value *> work = {v};
    std::set<const Value *> seen;
    while (!work.empty()) {
      Value *x = work.back();
      work.pop_back();
      if (!seen.insert(x).second)
        continue;
      std::vector<Op *> users;
      usersIn(r, x, users);
      for (Op *u : users) {
        if ((u->kind == OpKind::Load && u->operands.size() > 1 && u->operands[1] == x) ||
            (u->kind == OpKind::Store && u->operands.size() > 2 && u->operands[2] == x))
          return true;
        bool logic = u->kind == OpKind::Binary && u->result->type.elem.is(ScalarKind::Bool) &&
                     (u->opcode == "&" || u->opcode == "&&" || u->opcode == "|" || u->opcode == "||");
        if (logic || isSpread(u->kind))
          work.push_back(u->result);
      }
    }
    return false;
  }

  /// Folds what the all-true tiles `trues` feed: `m & true` is m, `true | m` true, a where()
  /// takes its first operand, loads and stores drop the mask (and a load its `other`), and a
  /// spread of true is true.
  void foldTrue(Region &body, std::vector<Value *> trues) {
    while (!trues.empty()) {
      Value *t = trues.back();
      trues.pop_back();
      std::vector<Op *> users;
      usersIn(body, t, users);
      for (Op *u : users) {
        Value *res = u->result;
        Value *with = nullptr;
        if (u->kind == OpKind::Load && u->operands.size() > 1 && u->operands[1] == t) {
          dropOperandsFrom(u, 1);
        } else if (u->kind == OpKind::Store && u->operands.size() > 2 && u->operands[2] == t) {
          dropOperandsFrom(u, 2);
        } else if (isSpread(u->kind) && u->kind != OpKind::Splat) {
          with = splatTrue(u, res->type);
          trues.push_back(with);
        } else if (u->kind == OpKind::Binary && (u->opcode == "&" || u->opcode == "&&") &&
                   res->type.elem.is(ScalarKind::Bool)) {
          Value *other = u->operands[0] == t ? u->operands[1] : u->operands[0];
          with = other == t ? t : splat(u, other, res->type);
        } else if (u->kind == OpKind::Binary && (u->opcode == "|" || u->opcode == "||") &&
                   res->type.elem.is(ScalarKind::Bool)) {
          with = splatTrue(u, res->type);
          trues.push_back(with);
        } else if (u->kind == OpKind::Select && u->operands[0] == t &&
                   u->operands[1]->type.elem == res->type.elem) {
          with = splat(u, u->operands[1], res->type);
        }
        if (with) {
          if (with->name.empty())
            with->name = res->name; // `mask` stays `mask` when a part of it folds away
          replaceAllUses(k_, res, with);
          eraseIfDead(k_, res);
        }
      }
      eraseIfDead(k_, t);
    }
  }

  Kernel &k_;
  Op &loop_;
  Value *iv_;
  const bool dotLoop_; // the loop has a tl::dot: only the compares of computed tiles fold
  std::set<const Value *> defined_;
  std::map<const Value *, Value *> cloneMap_;
  std::map<const Value *, Value *> widened_; // 64-bit casts made for the end's arithmetic
  std::map<const Value *, Value *> hoisted_; // invariant scalars of the body, before the loop
  std::map<std::string, Value *> endConstants_;
};

/// Innermost, not unrolled, `<` loops over a signed integer. A loop with a tl::dot must not
/// carry pointers: its copies are pipelined later, and a pipelined loop's pointers may not be
/// read after it (the first copy's would be, by the second).
bool splittable(const Op &op) {
  if (op.kind != OpKind::For || op.opcode != "<" || op.unrolled || op.pipelined ||
      !isSignedInt(op.regions[0]->args[0]->type))
    return false;
  bool plain = true, dot = false;
  walkRegion(*op.regions[0], [&](const Op &o) {
    plain &= o.kind != OpKind::For && o.kind != OpKind::While;
    dot |= o.kind == OpKind::Dot;
  });
  if (dot)
    for (const Value *v : op.results)
      plain &= !v->type.pointer;
  return plain;
}

void splitIn(Kernel &k, Region &r) {
  for (size_t i = 0; i < r.ops.size(); ++i) {
    Op *op = r.ops[i].get();
    if (splittable(*op)) {
      if (Splitter(k, *op).run())
        i = locate(k, op).index; // the first copy and its end went in before it
      continue;
    }
    for (auto &sub : op->regions)
      splitIn(k, *sub);
  }
}

} // namespace

void runSplitRaggedLoops(Kernel &k) {
  splitIn(k, k.body);
  // The folded `true` tiles were the newest values: forget them, so that values made later
  // are numbered as they would be in this IR parsed back (tilec-opt, --dump-after).
  std::vector<Value *> live = liveValues(k);
  size_t keep = live.empty() ? 0 : size_t(live.back()->id) + 1;
  if (keep < k.values.size())
    k.values.resize(keep);
}

} // namespace tilec
