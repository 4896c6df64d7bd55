#include "transforms/SinkWideningCasts.h"

#include "ir/Rewriter.h"

namespace tilec {

namespace {

/// Whether `op` or an op of its nested regions reads `v` (operands or region yields).
bool reads(const Op &op, const Value *v) {
  for (const Value *o : op.operands)
    if (o == v)
      return true;
  for (const auto &r : op.regions) {
    for (const Value *y : r->yields)
      if (y == v)
        return true;
    for (const auto &inner : r->ops)
      if (reads(*inner, v))
        return true;
  }
  return false;
}

/// A tile cast whose elements get wider: from a known or template type (bf16, half, an 8-bit
/// float or `T`) to a known type of more bits.
bool isWideningTileCast(const Op &op) {
  if (op.kind != OpKind::Cast || !op.result || !op.result->type.isTile() ||
      op.result->type.pointer)
    return false;
  const int to = op.result->type.elem.bits();
  const int from = op.operands[0]->type.elem.bits();
  return to > 0 && (from == 0 || from < to);
}

void sinkIn(Kernel &k, Region &r) {
  for (auto &op : r.ops)
    for (auto &inner : op->regions)
      sinkIn(k, *inner);
  // Last to first, so that a cast that reads another cast's result does not pass it.
  for (size_t i = r.ops.size(); i-- > 0;) {
    Op *cast = r.ops[i].get();
    if (!isWideningTileCast(*cast))
      continue;
    size_t user = i + 1;
    while (user < r.ops.size() && !reads(*r.ops[user], cast->result))
      ++user;
    // Read only by the region's yields (user == size), or right away: nothing to gain.
    if (user == r.ops.size() || user == i + 1)
      continue;
    moveBefore(k, cast, r.ops[user].get());
  }
}

} // namespace

void runSinkWideningCasts(Kernel &k) { sinkIn(k, k.body); }

} // namespace tilec
