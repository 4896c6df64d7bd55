#include "transforms/RematerializeConversions.h"

#include "ir/Rewriter.h"

#include <algorithm>
#include <map>
#include <set>

namespace tilec {

namespace {

// Past this many ops, recomputing may cost more than the conversion saves.
constexpr size_t kMaxChain = 12;

/// The tile ops `v` is computed from, operands first; false when one is not register
/// arithmetic (isRegisterArithmetic), the chain leaves rank 1, or it grows past kMaxChain. Scalars
/// are read as they are.
bool collectChain(const Value *v, std::vector<Op *> &chain, std::set<const Value *> &seen) {
  if (v->type.isScalar() || !seen.insert(v).second)
    return true;
  Op *def = v->def;
  if (!def || !isRegisterArithmetic(def->kind) || v->type.shape.size() != 1)
    return false;
  for (const Value *o : def->operands)
    if (!collectChain(o, chain, seen))
      return false;
  chain.push_back(def);
  return chain.size() <= kMaxChain;
}

} // namespace

void runRematerializeConversions(Kernel &k) {
  std::vector<Op *> conversions;
  walkOps(k, [&](Op &op) {
    if (op.kind == OpKind::ConvertLayout && op.result->type.shape.size() == 1)
      conversions.push_back(&op);
  });
  for (Op *conv : conversions) {
    std::vector<Op *> chain;
    std::set<const Value *> seen;
    if (!collectChain(conv->operands[0], chain, seen))
      continue;
    int layout = conv->result->layout;
    Builder b(k, conv);
    std::map<const Value *, Value *> copies;
    for (Op *op : chain) {
      std::vector<Value *> operands;
      for (Value *o : op->operands)
        operands.push_back(copies.count(o) ? copies[o] : o);
      Op *c = b.clone(*op, operands, op->result->type);
      c->result->layout = layout;
      c->result->name = op->result->name.empty() ? "" : op->result->name;
      copies[op->result] = c->result;
    }
    Value *remade = copies.at(conv->operands[0]);
    Value *original = conv->operands[0];
    replaceAllUses(k, conv->result, remade);
    eraseOp(k, conv);
    eraseIfDead(k, original);
  }
}

} // namespace tilec
