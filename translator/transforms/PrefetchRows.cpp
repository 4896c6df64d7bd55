#include "transforms/PrefetchRows.h"

#include "ir/Rewriter.h"

#include <set>
#include <tuple>

namespace tilec {

namespace {

/// The row a tile load reads: its first element at `base` + `offset` (offset null when the
/// pointer moved by itself) and, when masked, its length.
struct Row {
  Value *base = nullptr;
  Value *offset = nullptr; // a scalar, or null
  Value *count = nullptr;  // null: the whole tile
  SymExpr elems = 0;
};

/// `load (addptr %p, C) [, A < %n [, other]]` of a rank-1 tile, not volatile, where A is
/// arange[0, B] and C is A, or A plus a scalar (`p + row * stride + cols` with the pointer
/// moved first, or with the offsets computed first).
bool rowOf(const Op &load, Row &row) {
  if (load.kind != OpKind::Load || !load.result || load.isVolatile ||
      load.result->type.shape.size() != 1)
    return false;
  const Op *ptrs = defOf(load.operands[0], OpKind::AddPtr);
  if (!ptrs || ptrs->operands.size() != 2 || !ptrs->operands[0]->type.isScalar())
    return false;
  Value *cols = ptrs->operands[1];
  if (const Op *sum = defOf(cols, OpKind::Binary);
      sum && sum->opcode == "+" && sum->operands.size() == 2) {
    const bool scalarFirst = sum->operands[0]->type.isScalar();
    Value *scalar = sum->operands[scalarFirst ? 0 : 1];
    if (!scalar->type.isScalar() || scalar->type.pointer)
      return false;
    row.offset = scalar;
    cols = sum->operands[scalarFirst ? 1 : 0];
  }
  const Op *arange = defOf(cols, OpKind::Arange);
  if (!arange || arange->attrs.size() != 2 || !arange->attrs[0].isConst(0))
    return false;
  row.base = ptrs->operands[0];
  row.elems = arange->attrs[1];
  if (load.operands.size() < 2)
    return true;
  const Op *mask = defOf(load.operands[1], OpKind::Binary);
  if (!mask || mask->opcode != "<" || mask->operands.size() != 2 || mask->operands[0] != cols ||
      !mask->operands[1]->type.isScalar() || mask->operands[1]->type.pointer)
    return false;
  row.count = mask->operands[1];
  return true;
}

/// Whether `v` is computed from tl::program_id (through register arithmetic): a row that is
/// the program's own. A row every program reads (a norm's weights) stays in L2 anyway.
bool fromProgramId(const Value *v, int depth = 0) {
  if (!v || !v->def || depth > 32)
    return false;
  if (v->def->kind == OpKind::ProgramId)
    return true;
  if (!isRegisterArithmetic(v->def->kind))
    return false;
  for (const Value *o : v->def->operands)
    if (fromProgramId(o, depth + 1))
      return true;
  return false;
}

/// Whether `v` is computed by an op of the kernel's body before position `at` (kernel
/// arguments are `param` ops there too), so that an op inserted there may read it.
bool definedBefore(Kernel &k, size_t at, const Value *v) {
  const OpPosition where = v->def ? locate(k, v->def) : OpPosition{};
  return where.region == &k.body && where.index < at;
}

} // namespace

void runPrefetchRows(Kernel &k) {
  Region &body = k.body;
  size_t first = body.ops.size();
  for (size_t i = 0; i < body.ops.size(); ++i)
    if (body.ops[i]->kind == OpKind::Load && body.ops[i]->result &&
        body.ops[i]->result->type.isTile()) {
      first = i;
      break;
    }
  if (first == body.ops.size())
    return;
  Op *anchor = body.ops[first].get();
  std::set<std::tuple<const Value *, const Value *, const Value *>> seen; // one per row
  std::vector<std::pair<Op *, Row>> rows;
  SymExpr rowBytes = 0; // of all the program's rows: what a thread holds once they are loaded
  for (size_t i = first; i < body.ops.size(); ++i) {
    Op *load = body.ops[i].get();
    Row row;
    if (!rowOf(*load, row) || !(fromProgramId(row.base) || fromProgramId(row.offset)) ||
        !definedBefore(k, first, row.base) ||
        (row.offset && !definedBefore(k, first, row.offset)) ||
        (row.count && !definedBefore(k, first, row.count)) ||
        !seen.insert({row.base, row.offset, row.count}).second)
      continue;
    rows.push_back({load, row});
    const SymExpr elemBytes =
        SymExpr::expr("sizeof(" + load->result->type.cudaElem() + ")", true);
    rowBytes = rowBytes + row.elems * elemBytes;
  }
  for (auto &[load, row] : rows) {
    Value *start = row.base;
    if (row.offset) // the row's start as a scalar pointer, next to the prefetch
      start = Builder(k, anchor)
                  .create(OpKind::AddPtr, {row.base, row.offset}, row.base->type)
                  ->result;
    std::vector<Value *> operands = {start};
    if (row.count)
      operands.push_back(row.count);
    Op *prefetch = Builder(k, anchor).create(OpKind::PrefetchL2, operands, Type{}, false);
    prefetch->attrs = {row.elems, rowBytes};
    prefetch->line = load->line;
    prefetch->loc = load->loc;
    prefetch->srcText = load->srcText;
  }
}

} // namespace tilec
