#include "transforms/TmaStores.h"

#include "ir/Rewriter.h"
#include "transforms/AllocateSharedMemory.h"
#include "transforms/TmaCopies.h"

namespace tilec {

namespace {

/// Whether `op`, or an op nested in it, reads or writes global memory (or leaves the kernel).
bool touchesGlobal(const Op &op) {
  switch (op.kind) {
  case OpKind::Load:
  case OpKind::Store:
  case OpKind::Atomic:
  case OpKind::AsyncCopy:
  case OpKind::TmaCopy:
  case OpKind::TmaLoad:
  case OpKind::PrefetchL2:
  case OpKind::Return:
    return !(op.kind == OpKind::Load && op.operands[0]->type.shared);
  default:
    break;
  }
  for (auto &r : op.regions)
    for (auto &inner : r->ops)
      if (touchesGlobal(*inner))
        return true;
  return false;
}

/// The loop persistent-programs made, over the programs a block runs (to `programs`).
bool isProgramsLoop(const Op &op) {
  return op.kind == OpKind::For && op.operands.size() > 1 &&
         defOf(op.operands[1], OpKind::Programs);
}

/// The store to give the copy engine: a tl::dot result's (quad_runs) tile store outside the
/// producer's branch, after which nothing in its region or the regions around it touches
/// global memory. Null if none. In a loop of the program (`inLoop`; the programs' loop is not
/// one) the next iteration's accesses would follow it: none is taken there.
Op *candidate(Region &r, bool &seen, bool inLoop = false) {
  for (size_t i = 0; i < r.ops.size(); ++i) {
    Op &op = *r.ops[i];
    if (op.kind == OpKind::ProducerBranch)
      continue;
    Op *found = nullptr;
    if (op.kind == OpKind::Store && op.quadRuns && op.operands.size() == 3 &&
        op.operands[0]->type.shape.size() == 2) {
      found = inLoop ? nullptr : &op;
      seen = true;
    } else {
      bool loop = (op.kind == OpKind::For || op.kind == OpKind::While) && !isProgramsLoop(op);
      for (auto &sub : op.regions)
        if (!found && !seen)
          found = candidate(*sub, seen, inLoop || loop);
    }
    if (seen) {
      for (size_t j = i + 1; j < r.ops.size(); ++j)
        if (touchesGlobal(*r.ops[j]))
          return nullptr;
      return found;
    }
  }
  return nullptr;
}

} // namespace

void runTmaStores(Kernel &k, const Target &target) {
  if (!target.tma || !target.wgmma)
    return;
  bool producer = false;
  walkOps(k, [&](Op &op) { producer |= op.kind == OpKind::WarpSpecialized; });
  if (!producer)
    return;
  bool seen = false;
  Op *store = candidate(k.body, seen);
  if (!store)
    return;
  // Elements of at most 2 bytes: a float tile's buffer would take the shared memory of the
  // larger configurations' stages (128 x 256 floats: 128 KB).
  const std::string elemBytes = store->operands[1]->type.elem.sizeofExpr();
  const bool templated = elemBytes.find("sizeof") != std::string::npos;
  if (!templated && std::stoi(elemBytes) > 2)
    return;
  Value *row0 = nullptr, *col0 = nullptr;
  int map = tmaStoreMap(k, *store, row0, col0);
  if (map < 0)
    return;

  Builder b(k, store);
  auto zeroIfNull = [&](Value *v) {
    if (v)
      return v;
    Op *zero = b.create(OpKind::Constant, {}, Type::scalarOf(ScalarKind::I32));
    zero->attrs = {SymExpr(0)};
    return zero->result;
  };
  row0 = zeroIfNull(row0);
  col0 = zeroIfNull(col0);

  // The staging buffer: after everything else in dynamic shared memory, so that no loop's
  // stages (which the producer may be filling for the next program) overlap it.
  Value *value = store->operands[1];
  Type bufType = value->type;
  bufType.shared = true;
  Op *buf = b.create(OpKind::SmemBuffer, {}, bufType);
  SymExpr offset = k.dynamicSmemBytes.isConst(0) ? SymExpr(0) : roundUp1024(k.dynamicSmemBytes);
  buf->attrs = {offset};
  for (auto &op : k.body.ops) // the map just made: its base names the buffer
    if (op->kind == OpKind::TmaMap && !op->operands[0]->name.empty())
      buf->result->name = op->operands[0]->name + "_staged";
  // The buffer is there when it fits beside the rest (the stages of the larger configurations
  // may leave no room for it) and, for a template element type, when the elements are of at
  // most 2 bytes; the tma_store asks the same before using it. 230400 bytes: what sm_90 lets
  // a block opt into (227 KB), less 2 KB for the kernel's static shared memory.
  SymExpr bytes = sharedBytes(bufType);
  SymExpr end = offset + bytes;
  std::string staged = end.operand() + " <= 230400";
  if (templated)
    staged = elemBytes + " <= 2 && " + staged;
  SymExpr stagedExpr = SymExpr::expr("(" + staged + ")", true);
  k.dynamicSmemBytes =
      offset + SymExpr::expr("(" + staged + " ? " + bytes.operand() + " : 0)", true);

  std::vector<Value *> operands = {store->operands[0], store->operands[1], store->operands[2],
                                   buf->result, row0, col0};
  // A persistent kernel: the copy pays when the block goes on to another program, its store
  // overlapping that program's loop; a block with one program stores from registers.
  // (persistent-programs made `programs` and `blocks`, the grid's x and the blocks started.)
  const Value *programs = nullptr;
  for (auto &op : k.body.ops) {
    if (op->kind == OpKind::Programs)
      programs = op->result;
    if (programs && op->kind == OpKind::NumPrograms && op->axis == 0) {
      Op *several = Builder(k, op.get(), /*after=*/true)
                        .create(OpKind::Binary, {const_cast<Value *>(programs), op->result},
                                Type::scalarOf(ScalarKind::Bool));
      several->opcode = ">";
      several->result->name = "blocks_run_several";
      operands.push_back(several->result);
      break;
    }
  }
  Op *tma = b.clone(*store, operands, Type{});
  tma->kind = OpKind::TmaStore;
  tma->attrs = {SymExpr(map), stagedExpr};
  tma->accessWidth = store->accessWidth;

  // The drain after the kernel-level op that holds the store.
  Op *top = nullptr;
  for (auto &op : k.body.ops) {
    bool holds = op.get() == tma;
    for (auto &r : op->regions)
      walkOps(*r, [&](Op &inner) { holds |= &inner == tma; });
    if (holds)
      top = op.get();
  }
  Op *drain = Builder(k, top, /*after=*/true)
                  .create(OpKind::TmaStoreDrain, {}, Type{}, /*hasResult=*/false);
  drain->srcText = "the copy engine has read the stored tiles' buffers";
  eraseOp(k, store);
}

} // namespace tilec
