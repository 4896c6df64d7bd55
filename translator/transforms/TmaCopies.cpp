#include "transforms/TmaCopies.h"

#include "ir/Rewriter.h"
#include "transforms/LowerPipeline.h"

#include <algorithm>
#include <map>
#include <set>

namespace tilec {

namespace {

/// `v` without the integer widenings, broadcasts and expand_dims around it (value-preserving
/// reshapes of one index); `expandedAt` gets the last expand_dims axis passed, or -1.
const Value *stripReshapes(const Value *v, int &expandedAt) {
  expandedAt = -1;
  for (;;) {
    const Op *d = v->def;
    if (!d)
      return v;
    if (d->kind == OpKind::Cast && v->type.elem.isInteger() &&
        d->operands[0]->type.elem.isInteger() &&
        (v->type.elem == d->operands[0]->type.elem || v->type.elem.is(ScalarKind::I64))) {
      v = d->operands[0];
    } else if (d->kind == OpKind::Broadcast) {
      v = d->operands[0];
    } else if (d->kind == OpKind::ExpandDims && !d->attrs.empty() && d->attrs[0].isConst()) {
      expandedAt = int(d->attrs[0].value());
      v = d->operands[0];
    } else {
      return v;
    }
  }
}

/// A kernel argument (an integer) or a constant, possibly widened: what the launcher can
/// compute from its own arguments. Null otherwise.
const Value *hostValue(const Value *v) {
  int unused;
  v = stripReshapes(v, unused);
  if (!v->type.isScalar() || !v->type.elem.isInteger())
    return nullptr;
  if (defOf(v, OpKind::Param) || defOf(v, OpKind::Constant))
    return v;
  return nullptr;
}

/// `start + arange(0, N)` (or `arange(0, N)`), rank 1; or that `% wrap` (tutorial 03's rows
/// that wrap around at the matrix's edge).
struct Index {
  const Value *tile = nullptr;
  Value *start = nullptr;       // null: 0
  const Value *wrap = nullptr;  // the bound of `% wrap`, a host value; null if none
};

const Value *hostValue(const Value *v);

bool indexOf(const Value *v, Index &out) {
  if (v->type.shape.size() != 1)
    return false;
  if (const Op *mod = defOf(v, OpKind::Binary); mod && mod->opcode == "%") {
    const Value *bound = hostValue(mod->operands[1]);
    Index inner;
    if (!bound || !bound->type.isScalar() || !indexOf(mod->operands[0], inner) || inner.wrap)
      return false;
    out = inner;
    out.wrap = bound;
    return true;
  }
  auto isArange0 = [](const Value *a) {
    const Op *d = defOf(a, OpKind::Arange);
    return d && d->attrs.size() == 2 && d->attrs[0].isConst(0);
  };
  out.tile = v;
  if (isArange0(v))
    return true;
  const Op *d = defOf(v, OpKind::Binary);
  if (!d || d->opcode != "+")
    return false;
  for (int i = 0; i < 2; ++i)
    if (d->operands[i]->type.isScalar() && d->operands[i]->type.elem.isInteger() &&
        isArange0(d->operands[1 - i])) {
      out.start = d->operands[i];
      return true;
    }
  return false;
}

/// A map's extent: a host value, or else `whole`, the size of an unmasked index's arange (the
/// copy reads that dimension whole).
struct Extent {
  const Value *value = nullptr;
  SymExpr whole;
};

/// What a qualifying copy reads: the box of `base`'s [rows, cols] matrix at (row.start,
/// col.start).
struct Box {
  Value *base = nullptr;
  const Value *stride = nullptr;
  Extent rows, cols;
  // The columns' stride when it is an argument (a block pointer's or tutorial 03's
  // stride_ak): the map is encoded only when it is 1. Null: the columns are adjacent.
  const Value *colStride = nullptr;
  Index row, col;
  // A scalar the pointers advance by, as the factors of a product, split into the rows it
  // moves (the product's other factors where one is the row stride) or else the columns:
  // tutorial 03's `a_ptrs += BLOCK_K` (a column shift of k * BLOCK_K) and
  // `b_ptrs += BLOCK_K * stride_bk` (a row shift of k * BLOCK_K). Empty: none.
  std::vector<Value *> rowShift, colShift;
  // A stack of matrices (attention's heads, a batch): the pointers start `batch * rows *
  // stride` elements in, `rows` the row mask's bound. The map gets a third dimension, this
  // product's other factors its coordinate. Empty: one matrix.
  std::vector<Value *> batch;
};

/// `v` without integer casts (widenings of an int index to the pointer offset's int64).
Value *stripIntCasts(const Value *v) {
  while (v->def && v->def->kind == OpKind::Cast && v->type.elem.isInteger() &&
         v->def->operands[0]->type.elem.isInteger())
    v = v->def->operands[0];
  return const_cast<Value *>(v);
}

/// The factors of scalar product `v` (through integer casts), in order.
void factorsOf(const Value *v, std::vector<Value *> &out) {
  Value *u = stripIntCasts(v);
  if (const Op *d = defOf(u, OpKind::Binary); d && d->opcode == "*") {
    factorsOf(d->operands[0], out);
    factorsOf(d->operands[1], out);
    return;
  }
  out.push_back(u);
}

/// The arange(0, N) an index adds its start to.
const Value *arangeOf(const Index &i) {
  if (!i.start)
    return i.tile;
  const Op *d = i.tile->def;
  return d->operands[0] == i.start ? d->operands[1] : d->operands[0];
}

/// The same index: one value, or the same start plus aranges of one size (recomputed copies).
bool sameIndex(const Value *a, const Index &b) {
  Index ia;
  return a == b.tile || (indexOf(a, ia) && ia.start == b.start &&
                         arangeOf(ia)->type.shape[0].sameAs(arangeOf(b)->type.shape[0]));
}

/// The rank-2 terms an offset is the sum of.
void summands(const Value *v, std::vector<const Value *> &terms) {
  const Value *u = stripIntCasts(v);
  const Op *d = defOf(u, OpKind::Binary);
  if (d && d->opcode == "+" && u->type.shape.size() == 2) {
    summands(d->operands[0], terms);
    summands(d->operands[1], terms);
    return;
  }
  terms.push_back(v);
}

/// The same scalar: one value, equal constants, or the same operation on the same scalars
/// (a product recomputed for the epilogue).
bool sameScalar(const Value *a, const Value *b, int depth = 0) {
  if (a == b)
    return true;
  if (depth > 6 || !a->def || !b->def || a->def->kind != b->def->kind ||
      a->def->opcode != b->def->opcode || !(a->type.elem == b->type.elem))
    return false;
  const Op &x = *a->def, &y = *b->def;
  switch (x.kind) {
  case OpKind::Constant:
  case OpKind::Param:
    return x.attrs[0].sameAs(y.attrs[0]);
  case OpKind::ProgramId:
    return x.axis == y.axis;
  case OpKind::Binary:
  case OpKind::Cast:
    for (size_t i = 0; i < x.operands.size(); ++i)
      if (!sameScalar(x.operands[i], y.operands[i], depth + 1))
        return false;
    return x.operands.size() == y.operands.size();
  default:
    return false;
  }
}

/// base + rowIndex * stride + colIndex (in any grouping and order, through chained addptrs),
/// reshaped to the box's [R, C]; `data` is what is copied (a stage, a stored tile), of the
/// base's element type.
bool matchPointers(const Value *ptrs, const Value *data, Box &box) {
  if (ptrs->type.shape.size() != 2)
    return false;
  std::vector<const Value *> terms;
  const Value *p = ptrs;
  for (;;) {
    int unused;
    p = stripReshapes(p, unused);
    const Op *add = defOf(p, OpKind::AddPtr);
    if (!add)
      break;
    summands(add->operands[1], terms);
    p = add->operands[0];
  }
  Value *base = const_cast<Value *>(p);
  if (!defOf(base, OpKind::Param) || !base->type.isScalar() || !base->type.pointer ||
      !(base->type.elem == data->type.elem))
    return false;
  bool haveRow = false, haveCol = false;
  std::vector<const Value *> shifts;
  for (const Value *t : terms) {
    if (t->type.isScalar()) { // a distance advanced (see LowerPipeline's carryDistances)
      if (!t->type.elem.isInteger())
        return false;
      shifts.push_back(t);
      continue;
    }
    int axis;
    const Value *s = stripReshapes(t, axis);
    Index index;
    if (const Op *mul = defOf(s, OpKind::Binary); mul && mul->opcode == "*") {
      bool matched = false;
      for (int j = 0; j < 2 && !matched; ++j) {
        int inner;
        const Value *idx = stripReshapes(mul->operands[j], inner);
        const Value *stride = hostValue(mul->operands[1 - j]);
        if ((inner >= 0 ? inner : axis) == 1 && stride && indexOf(idx, index)) {
          matched = !haveRow;
          box.row = index;
          box.stride = stride;
          if (matched)
            haveRow = true;
        } else if ((inner >= 0 ? inner : axis) == 0 && stride && !haveCol &&
                   (defOf(stride, OpKind::Param) || defOf(stride, OpKind::Constant)) &&
                   indexOf(idx, index)) {
          // Columns times a stride: an argument checked for 1 where the map is encoded, or
          // the constant 1.
          const Op *c = defOf(stride, OpKind::Constant);
          if (c && !(c->attrs[0].isConst(1)))
            return false;
          matched = true;
          box.col = index;
          box.colStride = c ? nullptr : stride;
          haveCol = true;
        }
      }
      if (!matched)
        return false;
    } else if (axis == 0 && !haveCol && indexOf(s, index)) {
      box.col = index;
      haveCol = true;
    } else {
      return false;
    }
  }
  box.base = base;
  if (!haveRow || !haveCol || !box.row.tile->type.shape[0].sameAs(ptrs->type.shape[0]) ||
      !box.col.tile->type.shape[0].sameAs(ptrs->type.shape[1]))
    return false;
  for (const Value *t : shifts) {
    std::vector<Value *> f;
    factorsOf(t, f);
    // Where the map is used the column stride is 1: a factor of it changes nothing.
    if (box.colStride) {
      auto byCol = std::find_if(f.begin(), f.end(),
                                [&](const Value *x) { return sameScalar(x, box.colStride); });
      if (byCol != f.end()) {
        if (f.size() == 1)
          return false; // a shift of one element: not a block's
        f.erase(byCol);
      }
    }
    for (const Value *x : f)
      if (!x->type.isScalar() || !x->type.elem.is(ScalarKind::I32))
        return false; // int32 box coordinates
    auto byStride = std::find_if(f.begin(), f.end(),
                                 [&](const Value *x) { return sameScalar(x, box.stride); });
    bool rows = byStride != f.end() && f.size() > 1;
    if (rows)
      f.erase(byStride);
    std::vector<Value *> &shift = rows ? box.rowShift : box.colShift;
    if (!shift.empty() || (rows ? box.row.wrap : box.col.wrap))
      return false; // one shift per dimension, none where the index wraps
    shift = f;
  }
  return true;
}

/// The same product: factors that pair off as the same scalars.
bool sameProduct(std::vector<Value *> a, const std::vector<Value *> &b) {
  if (a.size() != b.size())
    return false;
  for (const Value *y : b) {
    auto it = std::find_if(a.begin(), a.end(), [&](const Value *x) { return sameScalar(x, y); });
    if (it == a.end())
      return false;
    a.erase(it);
  }
  return true;
}

/// The comparisons a mask is the conjunction of (through broadcasts and expand_dims), each
/// with the axis its operands were expanded along (-1 if none was seen).
bool conjuncts(const Value *m, int axisAbove, std::vector<std::pair<const Op *, int>> &atoms) {
  int axis;
  m = stripReshapes(m, axis);
  if (axis < 0)
    axis = axisAbove;
  const Op *d = defOf(m, OpKind::Binary);
  if (!d)
    return false;
  if (d->opcode == "&" || d->opcode == "&&")
    return conjuncts(d->operands[0], axis, atoms) && conjuncts(d->operands[1], axis, atoms);
  atoms.push_back({d, axis});
  return true;
}

/// What the facts below stand on: where each region argument comes from, and the template
/// constants that are some tile's dimension (powers of two from 1, checked where the kernel
/// is compiled).
struct Facts;

/// Where each region argument comes from: its op and position (a For's results are filed as
/// its body's arguments after the induction variable, which they end as; an If's results by
/// their position).
using ArgOwners = std::map<const Value *, std::pair<const Op *, size_t>>;
struct Facts {
  ArgOwners owners;
  std::set<std::string> tileDims;
};

/// Whether scalar `v` is provably >= 0: constants, program ids, sums, products and quotients of
/// such, and a loop's counters that start there and go up by such a step.
bool nonNegative(const Facts &facts, const Value *v, int depth) {
  if (depth > 12 || !v->type.isScalar() || !v->type.elem.isInteger())
    return false;
  if (auto it = facts.owners.find(v); it != facts.owners.end()) {
    const Op *loop = it->second.first;
    size_t i = it->second.second;
    // An If's result: what each branch yields for it.
    if (loop->kind == OpKind::If && i < loop->results.size() && v == loop->results[i]) {
      for (auto &r : loop->regions)
        if (i >= r->yields.size() || !nonNegative(facts, r->yields[i], depth + 1))
          return false;
      return true;
    }
    if (loop->kind != OpKind::For || loop->opcode != "<")
      return false;
    const Region &body = *loop->regions[0];
    if (i == 0) // the induction variable: from lower, by step
      return nonNegative(facts, loop->operands[0], depth + 1) && nonNegative(facts, loop->operands[2], depth + 1);
    // A carried value (or the loop's result for it): from a start, up by a step.
    const Value *arg = body.args[i], *next = body.yields[i - 1];
    const Op *add = defOf(next, OpKind::Binary);
    return nonNegative(facts, loop->operands[2 + i], depth + 1) && add && add->opcode == "+" &&
           ((add->operands[0] == arg && nonNegative(facts, add->operands[1], depth + 1)) ||
            (add->operands[1] == arg && nonNegative(facts, add->operands[0], depth + 1)));
  }
  const Op *d = v->def;
  if (!d)
    return false;
  switch (d->kind) {
  case OpKind::Constant:
    return d->attrs[0].isConst() ? d->attrs[0].value() >= 0
                                 : facts.tileDims.count(d->attrs[0].str()) > 0;
  case OpKind::ProgramId:
  case OpKind::NumPrograms:
    return true;
  case OpKind::Cast:
    return d->operands[0]->type.elem.isInteger() && nonNegative(facts, d->operands[0], depth + 1);
  case OpKind::Select: // either value
    return nonNegative(facts, d->operands[1], depth + 1) &&
           nonNegative(facts, d->operands[2], depth + 1);
  case OpKind::Binary:
    if (d->opcode == "maximum")
      return nonNegative(facts, d->operands[0], depth + 1) ||
             nonNegative(facts, d->operands[1], depth + 1);
    if (d->opcode == "+" || d->opcode == "*" || d->opcode == "/" || d->opcode == "cdiv" ||
        d->opcode == "minimum")
      return nonNegative(facts, d->operands[0], depth + 1) && nonNegative(facts, d->operands[1], depth + 1);
    if (d->opcode == "%") // C's remainder has the sign of the dividend
      return nonNegative(facts, d->operands[0], depth + 1);
    return false;
  default:
    return false;
  }
}

/// The mask is exactly 0 <= row < ROWS && 0 <= col < COLS, the bounds host values; a bound
/// `0 <=` may be left out where the index is provably not negative, or where the caller checks
/// the box's start at run time (`lowerChecked`), and both where the index wraps (`% ROWS`: no
/// mask on that dimension).
bool matchMask(const Facts &facts, const Value *mask, Box &box, bool lowerChecked = false) {
  // A tma_copy keeps the copy's mask for its cp.async alternative: copies without one stay.
  std::vector<std::pair<const Op *, int>> atoms;
  if (!mask || !conjuncts(mask, -1, atoms))
    return false;
  bool lower[2] = {false, false};
  const Value *upper[2] = {nullptr, nullptr};
  const Op *whole[2] = {nullptr, nullptr}; // the arange an unmasked dimension covers
  const Index *dims[2] = {&box.row, &box.col};
  for (auto [a, axisAbove] : atoms) {
    // idx OP x, with `>` and `<=` turned around.
    const Value *idx = a->operands[0], *x = a->operands[1];
    std::string op = a->opcode;
    if (op == ">" || op == "<=") {
      std::swap(idx, x);
      op = op == ">" ? "<" : ">=";
    }
    int axis;
    idx = stripReshapes(idx, axis);
    if (axis < 0)
      axis = axisAbove;
    // Rows are expanded along axis 1 ([R, 1]), columns along axis 0 ([1, C]).
    int d = axis == 1 && sameIndex(idx, box.row) ? 0 : axis == 0 && sameIndex(idx, box.col) ? 1 : -1;
    if (d < 0)
      return false;
    // A shifted dimension's index is bounded by the bound less the shift
    // (`offs_k < K - k * BLOCK_K`): the box's coordinate, index plus shift, is below the bound.
    const std::vector<Value *> &shift = d == 0 ? box.rowShift : box.colShift;
    const Value *bound = nullptr;
    if (shift.empty()) {
      bound = hostValue(x);
    } else if (const Value *whole = hostValue(x);
               whole && d == 0 && op == "<" && box.batch.empty() && !box.row.wrap &&
               shift.size() > 1 && std::any_of(shift.begin(), shift.end(), [&](const Value *f) {
                 return sameScalar(f, whole);
               })) {
      // The rows are bounded by the very factor the shift moves by: the shift picks one of a
      // stack of matrices of `whole` rows (`base + head * N * D`, rows `< N`).
      auto byRows = std::find_if(box.rowShift.begin(), box.rowShift.end(),
                                 [&](const Value *f) { return sameScalar(f, whole); });
      box.rowShift.erase(byRows);
      box.batch = box.rowShift;
      box.rowShift.clear();
      bound = whole;
    } else if (const Op *less = defOf(stripIntCasts(x), OpKind::Binary);
               less && less->opcode == "-" && op == "<") {
      std::vector<Value *> f;
      factorsOf(less->operands[1], f);
      if (sameProduct(f, shift))
        bound = hostValue(less->operands[0]);
    }
    if (!bound || dims[d]->wrap) // a wrapped index is bounded by its wrap alone
      return false;
    if (op == ">=" && defOf(bound, OpKind::Constant) && bound->def->attrs[0].isConst(0)) {
      lower[d] = true;
    } else if (op == "<" && (!upper[d] || upper[d] == bound)) {
      upper[d] = bound;
    } else {
      return false;
    }
  }
  for (int d = 0; d < 2; ++d) {
    // Unmasked, unshifted and from 0: the copy reads exactly the index's range, [0, n).
    if (!upper[d] && !lower[d] && !dims[d]->start && !dims[d]->wrap &&
        (d == 0 ? box.rowShift : box.colShift).empty())
      if ((whole[d] = defOf(dims[d]->tile, OpKind::Arange)))
        continue;
    if (dims[d]->wrap) {
      upper[d] = dims[d]->wrap;
      lower[d] = true; // a negative row would read outside the matrix, unmasked
    } else if ((!lower[d] || !(d == 0 ? box.rowShift : box.colShift).empty()) && upper[d]) {
      // `index >= 0` does not bound a shifted coordinate: its start and shift must be.
      lower[d] = !dims[d]->start || nonNegative(facts, dims[d]->start, 0) || lowerChecked;
      for (const Value *f : d == 0 ? box.rowShift : box.colShift)
        lower[d] = lower[d] && nonNegative(facts, f, 0);
    }
  }
  for (int d = 0; d < 2; ++d)
    if (!whole[d] && (!lower[d] || !upper[d]))
      return false;
  box.rows = whole[0] ? Extent{nullptr, whole[0]->attrs[1]} : Extent{upper[0], {}};
  box.cols = whole[1] ? Extent{nullptr, whole[1]->attrs[1]} : Extent{upper[1], {}};
  return true;
}

class TmaCopies {
public:
  explicit TmaCopies(Kernel &k) : k_(k) {}
  void run() {
    std::vector<Op *> loops;
    walkOps(k_, [&](Op &op) {
      if (op.kind == OpKind::For)
        loops.push_back(&op);
      for (auto &r : op.regions)
        for (size_t i = 0; i < r->args.size(); ++i)
          facts_.owners[r->args[i]] = {&op, i};
      if (op.kind == OpKind::For) // a loop's results: its carried values after the last trip
        for (size_t i = 0; i < op.results.size(); ++i)
          facts_.owners[op.results[i]] = {&op, i + 1};
      if (op.kind == OpKind::If) // a branch's results: what one of its regions yields
        for (size_t i = 0; i < op.results.size(); ++i)
          facts_.owners[op.results[i]] = {&op, i};
      if (op.result)
        for (const SymExpr &d : op.result->type.shape)
          if (!d.isConst())
            facts_.tileDims.insert(d.str());
    });
    for (Op *loop : loops)
      if (OpPosition at = locate(k_, loop); at.region)
        lowerLoop(*at.region, at.index);
  }

private:
  Kernel &k_;
  Facts facts_;
  Op *lastMap_ = nullptr; // maps go after the params, in order
  std::map<std::string, int> maps_; // by what they map (hostKey of each operand, the shape)
  int mapCount_ = 0;

  /// A host value as an operand of a map (after the params): the param, or a copy of the
  /// constant there.
  Value *atTop(const Value *v) {
    if (v->def->kind == OpKind::Param)
      return const_cast<Value *>(v);
    return constantAtTop(v->def->attrs[0], v->type);
  }

  /// An extent as an operand of a map: its host value, or its arange's size as a constant.
  Value *atTop(const Extent &e) {
    return e.value ? atTop(e.value) : constantAtTop(e.whole, Type::scalarOf(ScalarKind::I32));
  }

  Value *constantAtTop(const SymExpr &n, const Type &type) {
    Op *c = Builder(k_, anchor(), /*after=*/true).create(OpKind::Constant, {}, type);
    c->attrs = {n};
    lastMap_ = c;
    return c->result;
  }

  Op *anchor() {
    if (lastMap_)
      return lastMap_;
    Op *last = nullptr;
    for (auto &op : k_.body.ops)
      if (op->kind == OpKind::Param)
        last = op.get();
    return last;
  }

  /// A host value by what it is: a parameter's index or a constant's value (copies of one
  /// constant in the prologue and the loop are the same).
  static std::string hostKey(const Value *v) {
    return v->def->kind == OpKind::Param ? "param " + v->def->attrs[0].str()
                                         : "constant " + v->def->attrs[0].str();
  }
  static std::string hostKey(const Extent &e) {
    return e.value ? hostKey(e.value) : "constant " + e.whole.str();
  }

  int mapFor(const Box &b, const Type &tile) {
    std::string key = hostKey(b.base) + "; " + hostKey(b.rows) + "; " + hostKey(b.cols) + "; " +
                      hostKey(b.stride) + "; " + (b.colStride ? hostKey(b.colStride) : "1") + "; " +
                      tile.shape[0].str() + ", " + tile.shape[1].str() +
                      (b.batch.empty() ? "" : "; stacked");
    if (auto it = maps_.find(key); it != maps_.end())
      return it->second;
    std::vector<Value *> operands = {b.base, atTop(b.rows), atTop(b.cols), atTop(b.stride)};
    if (b.colStride)
      operands.push_back(const_cast<Value *>(b.colStride));
    Op *map = Builder(k_, anchor(), /*after=*/true)
                  .create(OpKind::TmaMap, operands, Type{}, /*hasResult=*/false);
    map->attrs = {tile.shape[0], tile.shape[1]};
    if (!b.batch.empty())
      map->attrs.push_back(SymExpr(1)); // a stack of matrices `rows * stride` apart
    map->srcText = "the copies of " + (b.base->name.empty() ? "a box" : b.base->name) +
                   "'s [" + tile.shape[0].str() + ", " + tile.shape[1].str() + "] boxes";
    lastMap_ = map;
    return maps_[key] = mapCount_++;
  }

  void lowerLoop(Region &parent, size_t at);

public:
  int storeMap(const Op &store, Value *&row0, Value *&col0);

private:
  Value *stackCoordinates(Op *prologue, const std::vector<std::pair<Op *, Box>> &boxes,
                          std::map<const Op *, Value *> &batchOf);
  bool knownBefore(const Value *v, const Op *prologue);
  bool wrapsUnseen(const Op &copy, const Box &box, Region &body);
  bool storedOnlyBelow(const Value *result, int accDim, const Index &wrapped);
};

/// The matrix coordinate of each stacked box in `boxes` (`batchOf`, products computed once
/// before `prologue`), and the guard that those not provably >= 0 are (null if none needs it).
Value *TmaCopies::stackCoordinates(Op *prologue, const std::vector<std::pair<Op *, Box>> &boxes,
                                   std::map<const Op *, Value *> &batchOf) {
  Value *guard = nullptr;
  Builder b(k_, prologue);
  auto i32 = Type::scalarOf(ScalarKind::I32);
  std::vector<std::pair<std::vector<Value *>, Value *>> made;
  for (auto &[copy, box] : boxes) {
    if (box.batch.empty())
      continue;
    auto same = std::find_if(made.begin(), made.end(),
                             [&](const auto &m) { return sameProduct(m.first, box.batch); });
    if (same != made.end()) {
      batchOf[copy] = same->second;
      continue;
    }
    Value *product = nullptr;
    for (Value *f : box.batch) {
      if (f->def && f->def->kind == OpKind::Constant) { // a copy where the product is computed
        Op *c = b.create(OpKind::Constant, {}, f->type);
        c->attrs = f->def->attrs;
        f = c->result;
      }
      if (!product) {
        product = f;
        continue;
      }
      Op *mul = b.create(OpKind::Binary, {product, f}, i32);
      mul->opcode = "*";
      product = mul->result;
    }
    made.push_back({box.batch, product});
    batchOf[copy] = product;
    if (nonNegative(facts_, product, 0)) // a program id, say: no guard needed
      continue;
    Op *zero = b.create(OpKind::Constant, {}, i32);
    zero->attrs = {SymExpr(0)};
    Op *ge = b.create(OpKind::Binary, {product, zero->result}, Type::scalarOf(ScalarKind::Bool));
    ge->opcode = ">=";
    if (guard) {
      Op *both = b.create(OpKind::Binary, {guard, ge->result}, Type::scalarOf(ScalarKind::Bool));
      both->opcode = "&&";
      guard = both->result;
    } else {
      guard = ge->result;
    }
  }
  if (guard)
    guard->name = "stacks_from_base";
  return guard;
}

/// Whether `v` is known where `prologue` starts: a param or constant, defined before it in a
/// region that holds it, or an argument of such a region (a loop's counter).
bool TmaCopies::knownBefore(const Value *v, const Op *prologue) {
  auto holds = [&](Region &r) {
    bool found = false;
    walkOps(r, [&](Op &op) { found |= &op == prologue; });
    return found;
  };
  if (!v->def) {
    auto it = facts_.owners.find(v);
    if (it == facts_.owners.end())
      return false;
    for (auto &r : it->second.first->regions)
      if (std::find(r->args.begin(), r->args.end(), v) != r->args.end() && holds(*r))
        return true;
    return false;
  }
  if (v->def->kind == OpKind::Param || v->def->kind == OpKind::Constant)
    return true;
  OpPosition p = locate(k_, v->def);
  bool found = false;
  for (size_t i = p.index + 1; p.region && i < p.region->ops.size() && !found; ++i) {
    found = p.region->ops[i].get() == prologue;
    for (auto &r : p.region->ops[i]->regions)
      found = found || holds(*r);
  }
  return found;
}

/// A copy whose rows (or columns) wrap (`% M`) reads other rows than a box does past the
/// matrix's edge: TMA fills zeros there. That is invisible when those rows of the tl::dot that
/// reads the stage only ever reach stores masked to below the edge (tutorial 03: the
/// wrapped rows' results are not stored). The wrapped dimension must be the dot's M (of A) or
/// N (of B): a wrapped K would add other products in.
bool TmaCopies::wrapsUnseen(const Op &copy, const Box &box, Region &body) {
  if (!box.row.wrap && !box.col.wrap)
    return true;
  const Value *ring = copy.operands[0]->def->operands[0];
  bool seen = false;
  bool ok = true;
  walkOps(body, [&](Op &op) {
    if (op.kind != OpKind::Dot)
      return;
    for (int j = 0; j < 2; ++j) {
      const Op *view = defOf(op.operands[size_t(j)], OpKind::StageView);
      if (!view || view->operands[0] != ring)
        continue;
      seen = true;
      // The staged dimension that is the dot's M (A) or N (B).
      int outer = j == 0 ? (op.dotTransposed[0] ? 1 : 0) : (op.dotTransposed[1] ? 0 : 1);
      const Index &wrapped = outer == 0 ? box.row : box.col;
      const Index &inner = outer == 0 ? box.col : box.row;
      ok = ok && !inner.wrap && wrapped.wrap && storedOnlyBelow(op.result, j, wrapped);
    }
  });
  return seen && ok;
}

/// Whether every value computed from `result` row by row (column by column for accDim 1) only
/// reaches memory through stores whose mask keeps that dimension's index below the wrap's bound.
bool TmaCopies::storedOnlyBelow(const Value *result, int accDim, const Index &wrapped) {
  // Readers of each value: (op, operand) pairs, and yields (the op whose region yields it, its
  // position).
  std::map<const Value *, std::vector<std::pair<Op *, size_t>>> readers;
  std::map<const Value *, std::vector<std::pair<Op *, size_t>>> yielders;
  walkOps(k_, [&](Op &op) {
    for (size_t i = 0; i < op.operands.size(); ++i)
      readers[op.operands[i]].push_back({&op, i});
    for (auto &r : op.regions)
      for (size_t i = 0; i < r->yields.size(); ++i)
        yielders[r->yields[i]].push_back({&op, i});
  });
  std::vector<const Value *> work = {result};
  std::set<const Value *> done;
  auto derive = [&](const Value *v) {
    if (done.insert(v).second)
      work.push_back(v);
  };
  while (!work.empty()) {
    const Value *v = work.back();
    work.pop_back();
    for (auto [op, i] : yielders[v]) {
      if (op->kind == OpKind::For) { // the next iteration's value and the loop's result
        derive(op->regions[0]->args[i + 1]);
        derive(op->results[i]);
      } else if (op->kind == OpKind::If) {
        derive(op->results[i]);
      } else {
        return false;
      }
    }
    for (auto [op, i] : readers[v]) {
      switch (op->kind) {
      case OpKind::Binary:
      case OpKind::Unary:
      case OpKind::Ternary:
      case OpKind::Select:
      case OpKind::Cast:
      case OpKind::Bitcast:
      case OpKind::ConvertLayout:
        // Element for element, in place: the same rows and columns.
        if (!op->result || op->result->type.shape.size() != v->type.shape.size())
          return false;
        derive(op->result);
        break;
      case OpKind::Dot:
        // As the accumulator: each result element adds to its own; as A, result row r is
        // made from row r alone.
        if (!(i == 2 || (i == 0 && accDim == 0)))
          return false;
        derive(op->result);
        break;
      case OpKind::For:
        if (i < 3)
          return false;
        derive(op->regions[0]->args[i - 2]);
        break;
      case OpKind::If:
        if (i == 0 && op->constexprCond.empty()) // a runtime If's condition
          return false;
        break; // carried in; what the branches yield is followed from their yields
      case OpKind::Store: {
        if (i != 1 || op->operands.size() < 3)
          return false;
        std::vector<std::pair<const Op *, int>> atoms;
        if (!conjuncts(op->operands[2], -1, atoms))
          return false;
        bool below = false;
        for (auto [a, axisAbove] : atoms) {
          if (a->opcode != "<" && a->opcode != "&&")
            continue;
          int axis;
          const Value *idx = stripReshapes(a->operands[0], axis);
          if (axis < 0)
            axis = axisAbove;
          const Value *bound = hostValue(a->operands[1]);
          Index index;
          // Rows are expanded along axis 1, columns along axis 0.
          if (axis == 1 - accDim && bound && hostKey(bound) == hostKey(wrapped.wrap) &&
              indexOf(idx, index) && !index.wrap &&
              arangeOf(index)->type.shape[0].sameAs(arangeOf(wrapped)->type.shape[0]) &&
              ((!index.start && !wrapped.start) ||
               (index.start && wrapped.start && sameScalar(index.start, wrapped.start))))
            below = true;
        }
        if (!below)
          return false;
        break;
      }
      default:
        return false;
      }
    }
  }
  return true;
}

/// The async copies in `r` and the regions nested in it.
void copiesIn(Region &r, std::vector<Op *> &out) {
  for (auto &op : r.ops) {
    if (op->kind == OpKind::AsyncCopy)
      out.push_back(op.get());
    for (auto &sub : op->regions)
      copiesIn(*sub, out);
  }
}

/// A loop lower-pipeline made (it starts with async_wait, reads its stages at a carried
/// read_stage, and the async_wait [0] and barrier that follow it): its copies and its
/// prologue's that read whole boxes become TMA copies on one mbarrier ring.
void TmaCopies::lowerLoop(Region &parent, size_t at) {
  Op *loop = parent.ops[at].get();
  Region &body = *loop->regions[0];
  if (body.ops.empty() || body.ops[0]->kind != OpKind::AsyncWait || at + 2 >= parent.ops.size() ||
      parent.ops[at + 1]->kind != OpKind::AsyncWait || parent.ops[at + 2]->kind != OpKind::Barrier)
    return;
  Op *drain = parent.ops[at + 1].get(); // the wait for every copy after the loop
  Op *freed = parent.ops[at + 2].get(); // the barrier after which the stages are free
  // The stage this iteration reads: a carried variable that stage views read.
  size_t readArg = 0;
  for (auto &op : body.ops)
    if (op->kind == OpKind::StageView)
      for (size_t i = 1; i < body.args.size(); ++i)
        if (op->operands[1] == body.args[i])
          readArg = i;
  if (!readArg)
    return;
  const Op *next = defOf(body.yields[readArg - 1], OpKind::Select);
  if (!next)
    return;
  Value *wraps = next->operands[0];
  Op *prologue = nullptr;
  for (size_t i = at; i-- > 0 && !prologue;)
    if (parent.ops[i]->kind == OpKind::For)
      prologue = parent.ops[i].get();
  if (!prologue)
    return;

  std::vector<Op *> copies;
  copiesIn(*prologue->regions[0], copies);
  copiesIn(body, copies);
  // A stack coordinate must be known before the prologue: it is computed there once, and
  // the copy engine is used only where it is not negative (below the base the pointers read
  // memory before the stack's first matrix, where the map would give zeros).
  std::vector<std::pair<Op *, Box>> boxes;
  for (Op *c : copies) {
    Box b;
    bool tile = c->operands[0]->type.shape.size() == 2; // rank-1 stages stay on cp.async
    if (tile && defOf(c->operands[0], OpKind::StageView) &&
        matchPointers(c->operands[1], c->operands[0], b) &&
        matchMask(facts_, c->operands.size() > 2 ? c->operands[2] : nullptr, b) &&
        wrapsUnseen(*c, b, body) &&
        std::all_of(b.batch.begin(), b.batch.end(),
                    [&](const Value *v) { return knownBefore(v, prologue); }))
      boxes.push_back({c, b});
  }
  if (boxes.empty())
    return;

  // Each stack coordinate once, before the prologue; the guard that those not provably
  // >= 0 are.
  std::map<const Op *, Value *> batchOf;
  Value *guard = stackCoordinates(prologue, boxes, batchOf);

  Type ringType = Type::scalarOf(ScalarKind::I64);
  ringType.shared = true;
  ringType.shape = {pipelineStages()};
  std::vector<Value *> ringOperands;
  if (guard)
    ringOperands.push_back(guard);
  Op *ring = Builder(k_, prologue).create(OpKind::MbarrierRing, ringOperands, ringType);
  ring->result->name = "landed";
  ring->srcText = "the stages the copy engine fills, each complete when its mbarrier's phase is";
  ring->line = loop->line;
  Value *bars = ring->result;

  std::set<Region *> arrived;
  for (auto &[copy, box] : boxes) {
    Region *home = locate(k_, copy).region;
    Value *stage = copy->operands[0]->def->operands[1];
    Builder b(k_, copy);
    auto startOf = [&](Value *start) {
      if (start)
        return start;
      Op *zero = b.create(OpKind::Constant, {}, Type::scalarOf(ScalarKind::I32));
      zero->attrs = {SymExpr(0)};
      return zero->result;
    };
    // The coordinate: the index's start plus the shift's product.
    auto coordinate = [&](Value *start, const std::vector<Value *> &shift) {
      Value *at = start;
      Value *product = nullptr;
      for (Value *f : shift) {
        if (!product) {
          product = f;
          continue;
        }
        Op *mul = b.create(OpKind::Binary, {product, f}, Type::scalarOf(ScalarKind::I32));
        mul->opcode = "*";
        product = mul->result;
      }
      if (!product)
        return startOf(at);
      if (!at)
        return product;
      Op *add = b.create(OpKind::Binary, {at, product}, Type::scalarOf(ScalarKind::I32));
      add->opcode = "+";
      return add->result;
    };
    Value *row0 = coordinate(box.row.start, box.rowShift);
    Value *col0 = coordinate(box.col.start, box.colShift);
    int map = mapFor(box, copy->operands[0]->type);
    std::vector<Value *> operands = {
        copy->operands[0], copy->operands[1], copy->operands[2], bars, stage, row0, col0};
    if (!box.batch.empty())
      operands.push_back(batchOf.at(copy));
    Op *tma = b.create(OpKind::TmaCopy, operands, Type{}, /*hasResult=*/false);
    tma->attrs = {SymExpr(map)};
    tma->accessWidth = copy->accessWidth;
    tma->srcText = copy->srcText;
    tma->line = copy->line;
    tma->loc = copy->loc;
    eraseOp(k_, copy);
    if (arrived.insert(home).second) {
      Op *arrive = Builder(k_, *home, *tma).create(OpKind::MbarrierArrive, {bars, stage}, Type{},
                                                    /*hasResult=*/false);
      arrive->srcText = "this stage's copies are issued";
      arrive->line = tma->line;
    }
  }

  // The phase of the stage read: flips each time read_stage wraps around.
  Builder before(k_, loop);
  Op *zero = before.create(OpKind::Constant, {}, Type::scalarOf(ScalarKind::I32));
  zero->attrs = {SymExpr(0)};
  Op *one = before.create(OpKind::Constant, {}, Type::scalarOf(ScalarKind::I32));
  one->attrs = {SymExpr(1)};
  addOperand(loop, zero->result);
  Value *phase = k_.newValue(Type::scalarOf(ScalarKind::I32), "phase");
  body.args.push_back(phase);
  loop->carriedNames.push_back("phase");
  loop->results.push_back(k_.newValue(Type::scalarOf(ScalarKind::I32), "phase"));

  Op *wait = Builder(k_, body.ops[0].get(), /*after=*/true)
                 .create(OpKind::MbarrierWait, {bars, body.args[readArg], phase}, Type{},
                         /*hasResult=*/false);
  wait->srcText = "the copy engine's copies for this iteration's stage have landed";
  wait->line = loop->line;

  Builder end(k_, body, *loop);
  Op *flipped = end.create(OpKind::Binary, {phase, one->result}, phase->type);
  flipped->opcode = "^";
  Op *nextPhase = end.create(OpKind::Select, {wraps, flipped->result, phase}, phase->type);
  nextPhase->result->name = "next_phase";
  body.yields.push_back(nextPhase->result);
  nextPhase->result->uses++;

  // When every copy of the loop is the copy engine's, its cp.async waits (each with a proxy
  // fence) are needed only where the launcher could not encode a map.
  if (boxes.size() == copies.size())
    for (Op *w : {body.ops[0].get(), drain})
      addOperand(w, bars);

  Op *inval = Builder(k_, freed, /*after=*/true)
                  .create(OpKind::MbarrierInval, {bars}, Type{}, /*hasResult=*/false);
  inval->srcText = "the mbarriers are done with";
  inval->line = loop->line;
}

/// tmaStoreMap's match: maps go after the kernel's maps, numbered after them.
int TmaCopies::storeMap(const Op &store, Value *&row0, Value *&col0) {
  const Value *ptrs = store.operands[0], *value = store.operands[1];
  if (store.operands.size() < 3 || ptrs->type.shape.size() != 2)
    return -1;
  Box box;
  if (!matchPointers(ptrs, value, box) ||
      !matchMask(facts_, store.operands[2], box, /*lowerChecked=*/true))
    return -1;
  // A box written where it stands: no wrapped index (the copy engine cannot wrap rows), no
  // distance advanced, one matrix.
  if (box.row.wrap || box.col.wrap || !box.rowShift.empty() || !box.colShift.empty() ||
      !box.batch.empty())
    return -1;
  for (auto &op : k_.body.ops)
    if (op->kind == OpKind::TmaMap) {
      lastMap_ = op.get();
      ++mapCount_;
    }
  row0 = box.row.start;
  col0 = box.col.start;
  return mapFor(box, value->type);
}

} // namespace

int tmaStoreMap(Kernel &k, const Op &store, Value *&row0, Value *&col0) {
  return TmaCopies(k).storeMap(store, row0, col0);
}

void runTmaCopies(Kernel &k, const Target &target) {
  if (!target.tma)
    return;
  TmaCopies(k).run();
}

} // namespace tilec
