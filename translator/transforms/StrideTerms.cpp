#include "transforms/StrideTerms.h"

#include "ir/Rewriter.h"

#include <functional>

namespace tilec {

const Value *stripCastsAndBroadcasts(const Value *v) {
  for (;;) {
    const Op *d = v->def;
    if (d && d->kind == OpKind::Cast && v->type.elem.isInteger() &&
        d->operands[0]->type.elem.isInteger())
      v = d->operands[0];
    else if (d && d->kind == OpKind::Broadcast)
      v = d->operands[0];
    else
      return v;
  }
}

const Value *integerParam(const Value *v) {
  v = stripCastsAndBroadcasts(v);
  return v->type.isScalar() && !v->type.pointer && v->type.elem.isInteger() &&
                 defOf(v, OpKind::Param)
             ? v
             : nullptr;
}

namespace {

void termsOf(const Value *v, std::vector<const Value *> &out) {
  const Value *u = stripCastsAndBroadcasts(v);
  if (const Op *d = defOf(u, OpKind::Binary); d && d->opcode == "+" && u->type.isTile()) {
    termsOf(d->operands[0], out);
    termsOf(d->operands[1], out);
    return;
  }
  out.push_back(u);
}

const Value *initialValue(const Value *v, const std::map<const Value *, const Value *> &inits) {
  for (auto it = inits.find(v); it != inits.end(); it = inits.find(v))
    v = it->second;
  return v;
}

} // namespace

std::vector<const Value *> offsetTerms(const Value *ptrs,
                                       const std::map<const Value *, const Value *> &inits) {
  std::vector<const Value *> terms;
  const Value *p = stripCastsAndBroadcasts(initialValue(ptrs, inits));
  while (const Op *add = defOf(p, OpKind::AddPtr)) {
    termsOf(add->operands[1], terms);
    p = stripCastsAndBroadcasts(initialValue(add->operands[0], inits));
  }
  return terms;
}

bool sliceFromArgs(const std::vector<const Value *> &roots, const std::set<const Value *> &args,
                   std::vector<const Op *> &slice) {
  std::map<const Value *, bool> memo;
  std::set<const Op *> inSlice;
  bool ok = true;
  std::function<bool(const Value *)> depends = [&](const Value *v) -> bool {
    if (args.count(v))
      return true;
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    memo[v] = false;
    const Op *d = v->def;
    if (!d || d->kind == OpKind::Param)
      return false;
    bool any = false;
    for (const Value *o : d->operands)
      any = depends(o) || any;
    if (any) {
      if (!isRegisterArithmetic(d->kind) || !d->regions.empty())
        ok = false;
      if (inSlice.insert(d).second)
        slice.push_back(d); // post-order: operands first
    }
    return memo[v] = any;
  };
  for (const Value *r : roots)
    depends(r);
  return ok;
}

} // namespace tilec
