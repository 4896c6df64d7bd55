#include "transforms/TransposeTiles.h"

#include "analysis/AxisInfo.h"
#include "ir/Rewriter.h"

#include <utility>

namespace tilec {

namespace {

size_t rankOf(const Value *v) { return v ? v->type.shape.size() : 0; }

/// Whether every op that reads or makes a rank-2 tile can take it with its axes traded (see
/// the header), and no tile has a higher rank.
bool transposable(Kernel &k) {
  bool ok = true;
  walkOps(k, [&](Op &op) {
    bool rank2 = false;
    auto see = [&](const Value *v) {
      ok &= rankOf(v) <= 2;
      rank2 |= rankOf(v) == 2;
    };
    for (const Value *v : op.operands)
      see(v);
    see(op.result);
    for (const Value *v : op.results)
      see(v);
    if (!rank2)
      return;
    switch (op.kind) {
    case OpKind::Hint: // hints speak of the last axis
      ok = false;
      break;
    case OpKind::Broadcast: // a rank-1 operand would broadcast along the rows only
      ok &= rankOf(op.operands[0]) == 2;
      break;
    case OpKind::Reduce: // a whole-tile arg reduction's index counts in row-major order
      ok &= op.result->type.isTile() || (op.opcode != "argmax" && op.opcode != "argmin");
      break;
    case OpKind::ExpandDims:
    case OpKind::Scan:
    case OpKind::Load:
    case OpKind::Store:
    case OpKind::Atomic:
    case OpKind::Random:
    case OpKind::InlineAsm:
    case OpKind::For:
    case OpKind::If:
    case OpKind::While:
      break;
    default:
      ok &= isRegisterArithmetic(op.kind);
    }
  });
  return ok;
}

/// Trades the two axes of every rank-2 value and of the ops that name an axis, and says so in
/// the kernel. Doing it twice gives the kernel back.
void transposeInPlace(Kernel &k) {
  k.tilesTransposed = !k.tilesTransposed;
  for (auto &v : k.values)
    if (v->type.shape.size() == 2)
      std::swap(v->type.shape[0], v->type.shape[1]);
  walkOps(k, [&](Op &op) {
    if (op.kind == OpKind::ExpandDims && rankOf(op.result) == 2)
      op.attrs[0] = SymExpr(1 - op.attrs[0].value());
    else if (op.kind == OpKind::Reduce && rankOf(op.operands[0]) == 2 && rankOf(op.result) == 1)
      op.attrs[0] = SymExpr(1 - op.attrs[0].value());
    else if (op.kind == OpKind::Scan && rankOf(op.operands[0]) == 2)
      op.attrs[1] = SymExpr(1 - op.attrs[1].value());
  });
}

/// A load, store or atomic of a rank-2 tile.
bool isRank2Access(const Op &op) {
  return (op.kind == OpKind::Load || op.kind == OpKind::Store || op.kind == OpKind::Atomic) &&
         rankOf(op.operands[0]) == 2;
}

/// The rank-2 accesses whose pointers axis-info finds contiguous along the rows for every
/// value of the template parameters.
int contiguousAccesses(Kernel &k) {
  runAxisInfo(k);
  int n = 0;
  walkOps(k, [&](Op &op) {
    n += isRank2Access(op) && !assuredRuns(op.operands[0]->info.contiguity).isConst(1) ? 1 : 0;
  });
  return n;
}

/// Whether the kernel has a rank-2 access at all.
bool accessesRank2(Kernel &k) {
  bool any = false;
  walkOps(k, [&](Op &op) { any |= isRank2Access(op); });
  return any;
}

} // namespace

void runTransposeTiles(Kernel &k) {
  if (!accessesRank2(k) || !transposable(k))
    return;
  int before = contiguousAccesses(k);
  transposeInPlace(k);
  if (contiguousAccesses(k) <= before)
    transposeInPlace(k);
  // The facts were only for deciding: axis-info runs later, on the kernel as it ends up.
  for (auto &v : k.values)
    v->info = AxisInfo{};
}

} // namespace tilec
