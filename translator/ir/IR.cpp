#include "ir/IR.h"

namespace tilec {

bool isCacheModifierOf(OpKind kind, const std::string &name) {
  auto in = [&](const auto &names) {
    for (const char *n : names)
      if (name == n)
        return true;
    return false;
  };
  return (kind == OpKind::Load && in(kLoadCacheModifiers)) ||
         (kind == OpKind::Store && in(kStoreCacheModifiers));
}

const char *opKindName(OpKind k) {
  switch (k) {
  case OpKind::Param:
    return "param";
  case OpKind::Constant:
    return "constant";
  case OpKind::ProgramId:
    return "program_id";
  case OpKind::NumPrograms:
    return "num_programs";
  case OpKind::Programs:
    return "programs";
  case OpKind::Arange:
    return "arange";
  case OpKind::Splat:
    return "splat";
  case OpKind::Broadcast:
    return "broadcast";
  case OpKind::Binary:
    return "binary";
  case OpKind::Unary:
    return "unary";
  case OpKind::Ternary:
    return "ternary";
  case OpKind::Select:
    return "select";
  case OpKind::Cast:
    return "cast";
  case OpKind::Bitcast:
    return "bitcast";
  case OpKind::AddPtr:
    return "addptr";
  case OpKind::Load:
    return "load";
  case OpKind::Store:
    return "store";
  case OpKind::Hint:
    return "hint";
  case OpKind::ExpandDims:
    return "expand_dims";
  case OpKind::ConvertLayout:
    return "convert_layout";
  case OpKind::Trans:
    return "trans";
  case OpKind::Reshape:
    return "reshape";
  case OpKind::Flip:
    return "flip";
  case OpKind::Sort:
    return "sort";
  case OpKind::Gather:
    return "gather";
  case OpKind::Histogram:
    return "histogram";
  case OpKind::Reduce:
    return "reduce";
  case OpKind::Scan:
    return "scan";
  case OpKind::Random:
    return "random";
  case OpKind::InlineAsm:
    return "inline_asm";
  case OpKind::Atomic:
    return "atomic";
  case OpKind::Dot:
    return "dot";
  case OpKind::LocalAlloc:
    return "local_alloc";
  case OpKind::SmemRing:
    return "smem_ring";
  case OpKind::StageView:
    return "stage_view";
  case OpKind::StageRead:
    return "stage_read";
  case OpKind::AsyncCopy:
    return "async_copy";
  case OpKind::AsyncCommit:
    return "async_commit";
  case OpKind::AsyncWait:
    return "async_wait";
  case OpKind::Barrier:
    return "barrier";
  case OpKind::TmaMap:
    return "tma_map";
  case OpKind::TmaCopy:
    return "tma_copy";
  case OpKind::MbarrierRing:
    return "mbarrier_ring";
  case OpKind::MbarrierArrive:
    return "mbarrier_arrive";
  case OpKind::MbarrierWait:
    return "mbarrier_wait";
  case OpKind::MbarrierInval:
    return "mbarrier_inval";
  case OpKind::MbarrierRestart:
    return "mbarrier_restart";
  case OpKind::FreedRing:
    return "freed_ring";
  case OpKind::WarpSpecialized:
    return "warp_specialized";
  case OpKind::ProducerThread:
    return "producer_thread";
  case OpKind::ProducerBranch:
    return "producer_branch";
  case OpKind::TmaLoad:
    return "tma_load";
  case OpKind::MbarrierRelease:
    return "mbarrier_release";
  case OpKind::WarpgroupTurns:
    return "warpgroup_turns";
  case OpKind::TurnBegin:
    return "turn_begin";
  case OpKind::TurnEnd:
    return "turn_end";
  case OpKind::TurnsFinish:
    return "turns_finish";
  case OpKind::PrefetchL2:
    return "prefetch_l2";
  case OpKind::DotWait:
    return "dot_wait";
  case OpKind::TmaStore:
    return "tma_store";
  case OpKind::TmaStoreDrain:
    return "tma_store_drain";
  case OpKind::SmemBuffer:
    return "smem_buffer";
  case OpKind::SmemTranspose:
    return "smem_transpose";
  case OpKind::StaticAssert:
    return "static_assert";
  case OpKind::Print:
    return "print";
  case OpKind::Assert:
    return "assert";
  case OpKind::For:
    return "for";
  case OpKind::If:
    return "if";
  case OpKind::While:
    return "while";
  case OpKind::Return:
    return "return";
  }
  return "?";
}

Value *Kernel::newValue(Type t, std::string name) {
  values.push_back(std::make_unique<Value>());
  Value *v = values.back().get();
  v->id = int(values.size()) - 1;
  v->type = std::move(t);
  v->name = std::move(name);
  return v;
}

Op *Kernel::append(OpKind kind, std::vector<Value *> operands, Type resultType, bool hasResult) {
  Region &r = current();
  r.ops.push_back(std::make_unique<Op>());
  Op *op = r.ops.back().get();
  op->kind = kind;
  op->operands = std::move(operands);
  for (Value *v : op->operands)
    v->uses++;
  if (hasResult) {
    op->result = newValue(std::move(resultType));
    op->result->def = op;
  }
  return op;
}

/// Inserts `op` into whichever region of `r` holds `at`: before it, or right after it.
static bool insertNear(Region &r, const Op *at, bool after, std::unique_ptr<Op> &op) {
  for (size_t i = 0; i < r.ops.size(); ++i) {
    if (r.ops[i].get() == at) {
      r.ops.insert(r.ops.begin() + long(i) + (after ? 1 : 0), std::move(op));
      return true;
    }
    for (auto &sub : r.ops[i]->regions)
      if (insertNear(*sub, at, after, op))
        return true;
  }
  return false;
}

/// A ConvertLayout of `v` to `layout`, located at `at` (not inserted yet).
static std::unique_ptr<Op> conversion(Kernel &k, Value *v, int layout, const Op *at) {
  auto op = std::make_unique<Op>();
  op->kind = OpKind::ConvertLayout;
  op->operands = {v};
  op->loc = at->loc;
  op->line = at->line;
  op->result = k.newValue(v->type);
  op->result->def = op.get();
  op->result->layout = layout;
  op->result->info = v->info;
  return op;
}

Value *Kernel::convertAfterDef(Value *v, int layout) {
  std::unique_ptr<Op> op = conversion(*this, v, layout, v->def);
  Value *out = op->result;
  if (!insertNear(body, v->def, /*after=*/true, op))
    return nullptr;
  v->uses++;
  return out;
}

Value *Kernel::convertBefore(Op *user, Value *v, int layout) {
  std::unique_ptr<Op> op = conversion(*this, v, layout, user);
  Value *out = op->result;
  out->uses = 1;
  if (!insertNear(body, user, /*after=*/false, op))
    return v;
  for (Value *&operand : user->operands)
    if (operand == v) {
      operand = out;
      break;
    }
  return out;
}

} // namespace tilec
