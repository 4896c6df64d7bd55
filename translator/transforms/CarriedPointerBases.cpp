#include "transforms/CarriedPointerBases.h"

#include "ir/Rewriter.h"

#include <vector>

namespace tilec {

namespace {

Type scalarOf(const Type &tile) {
  Type t = tile;
  t.shape.clear();
  return t;
}

/// Carried variable `j` of `loop`, when it is a pointer tile made as scalar base + offsets
/// before the loop and advanced by a scalar at the end of each iteration: the AddPtr ops that
/// make its initial value and its next value.
bool splittable(const Op &loop, size_t j, const Op *&init, const Op *&next) {
  const Region &body = *loop.regions[0];
  const Value *arg = body.args[1 + j];
  if (!arg->type.pointer || !arg->type.isTile() || arg->type.shared)
    return false;
  init = defOf(loop.operands[3 + j], OpKind::AddPtr);
  next = defOf(body.yields[j], OpKind::AddPtr);
  return init && next && init->operands[0]->type.isScalar() &&
         sameShape(init->operands[1]->type.shape, arg->type.shape) && next->operands[0] == arg &&
         next->operands[1]->type.isScalar();
}

/// The scalar terms of `offsets` (a sum of scalars and one tile), and the tile term; for
/// offsets that are no such sum, none and `offsets` itself.
Value *tileTerm(Value *offsets, std::vector<Value *> &scalars) {
  const Op *sum = defOf(offsets, OpKind::Binary);
  if (!sum || sum->opcode != "+")
    return offsets;
  for (size_t i = 0; i < 2; ++i)
    if (sum->operands[i]->type.isScalar() && sum->operands[1 - i]->type.isTile() &&
        sum->operands[1 - i]->type.cudaElem() == offsets->type.cudaElem()) {
      scalars.push_back(sum->operands[i]);
      return tileTerm(sum->operands[1 - i], scalars);
    }
  return offsets;
}

void split(Kernel &k, Op &loop, size_t j, const Op &init, const Op &next, Op *bodyStart) {
  Region &body = *loop.regions[0];
  Value *arg = body.args[1 + j];
  Value *base = init.operands[0], *offsets = init.operands[1], *step = next.operands[1];
  const Type tile = arg->type;

  // Scalar terms of the offsets (`i_k * BK` of `i_k * BK + tl::arange(...)`) join the base; a
  // tl::arange left over is made again in the body, so that the compiler sees each element's
  // offset from the thread's first as a constant.
  std::vector<Value *> scalars;
  offsets = tileTerm(offsets, scalars);
  for (Value *s : scalars)
    base = Builder(k, &loop).create(OpKind::AddPtr, {base, s}, base->type)->result;

  // In the body: the tile from the carried base, where the body begins.
  arg->type = scalarOf(tile);
  Value *inBody = offsets;
  const Op *cast = defOf(offsets, OpKind::Cast);
  if (const Op *arange = defOf(cast ? cast->operands[0] : offsets, OpKind::Arange)) {
    Op *again = Builder(k, bodyStart).clone(*arange, {}, arange->result->type);
    again->result->name = arange->result->name;
    inBody = again->result;
    if (cast)
      inBody = Builder(k, bodyStart).clone(*cast, {inBody}, offsets->type)->result;
  }
  Op *rebuilt = Builder(k, bodyStart).create(OpKind::AddPtr, {arg, inBody}, tile);
  rebuilt->result->name = arg->name;
  rebuilt->srcText = init.srcText;
  rebuilt->line = init.line;
  rebuilt->loc = init.loc;
  replaceAllUses(k, arg, rebuilt->result, rebuilt);
  Value *oldNext = body.yields[j];
  Op *advanced = Builder(k, oldNext->def, /*after=*/true)
                     .create(OpKind::AddPtr, {arg, step}, scalarOf(tile));
  advanced->srcText = next.srcText;
  body.yields[j] = advanced->result;

  // Before the loop: the base. After it: the tile from the base the loop ends with.
  Value *oldInit = loop.operands[3 + j];
  setOperand(&loop, 3 + j, base);
  Value *result = loop.results[j];
  result->type = scalarOf(tile);
  Op *after = Builder(k, &loop, /*after=*/true).create(OpKind::AddPtr, {result, offsets}, tile);
  after->result->name = result->name;
  after->srcText = init.srcText;
  after->line = init.line;
  after->loc = init.loc;
  replaceAllUses(k, result, after->result, after);
  loop.carriedNames[j] += "_base";

  recountUses(k);
  eraseIfDead(k, oldNext);
  eraseIfDead(k, oldInit);
  eraseIfDead(k, after->result);
}

void visit(Kernel &k, Region &r) {
  for (size_t i = 0; i < r.ops.size(); ++i) {
    Op &op = *r.ops[i];
    for (auto &sub : op.regions)
      visit(k, *sub);
    if (op.kind != OpKind::For || op.unrolled || holdsDot(*op.regions[0]))
      continue;
    // The rebuilt tiles go where the body began, in the order of the carried variables.
    Op *bodyStart = op.regions[0]->ops.empty() ? nullptr : op.regions[0]->ops.front().get();
    for (size_t j = 0; j < op.results.size() && bodyStart; ++j) {
      const Op *init = nullptr, *next = nullptr;
      if (splittable(op, j, init, next))
        split(k, op, j, *init, *next, bodyStart);
    }
  }
}

} // namespace

void runCarriedPointerBases(Kernel &k) {
  recountUses(k);
  visit(k, k.body);
}

} // namespace tilec
