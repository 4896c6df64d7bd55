// The software-pipeline schedule, as lower-pipeline wrote it into the IR: stage rings in
// dynamic shared memory, the stage a copy or a tl::dot uses, cp.async copies and their
// commit/wait groups, and barriers. Each op prints as one statement.
#include "codegen/KernelEmitter.h"

namespace tilec {
namespace emit {

void KernelEmitter::emitSchedule(const Op &op) {
  switch (op.kind) {
  case OpKind::SmemRing: {
    // Stages of rank 2 are tl::dot operands; rank-1 stages are read by anything.
    const Type &t = op.result->type;
    bool dotOperand = t.shape.size() == 3;
    *out_ << "  // " << nameOf(op.result) << ": " << t.shape[0].str() << " stage buffers of ["
          << t.shape[1].str() << (dotOperand ? ", " + t.shape[2].str() : "")
          << "], copied into ahead of the " << (dotOperand ? "tl::dot" : "iteration")
          << " that reads them (smem_ring)\n";
    declareDynamicSmem(op);
    return;
  }
  case OpKind::SmemBuffer:
    *out_ << "  // " << nameOf(op.result) << ": a [" << op.result->type.shape[0].str() << ", "
          << op.result->type.shape[1].str() << "] buffer (smem_buffer)\n";
    declareDynamicSmem(op);
    return;
  case OpKind::SmemTranspose: {
    const Value *src = op.operands[0], *dst = op.operands[1];
    comment(op);
    *out_ << "  tilec::transpose_to_k_major<" << smemTileType(src) << ", " << smemTileType(dst)
          << ", THREADS>(" << nameOf(src) << ", " << nameOf(dst) << ", tid);\n";
    return;
  }
  case OpKind::StageView: {
    const Value *ring = op.operands[0], *r = op.result;
    std::string stageElems = r->type.shape.size() == 1 ? r->type.shape[0].operand()
                                                       : smemTileType(ring) + "::ELEMS";
    *out_ << "  " << r->type.elem.cuda() << "* const " << nameOf(r) << " = " << nameOf(ring)
          << " + " << elem(op.operands[1], "0") << " * " << stageElems << ";\n";
    return;
  }
  case OpKind::StageRead: {
    const Value *stage = op.operands[0], *r = op.result;
    std::string L = layoutOf(r);
    *out_ << "  // " << nameOf(r) << ": read from its stage in layout " << L << "\n";
    *out_ << "  " << r->type.cudaElem() << " " << nameOf(r) << "[" << L << "::ELEMS];\n";
    *out_ << "  tilec::read_stage<" << L << ">(" << nameOf(stage) << ", " << nameOf(r)
          << ", tid);\n";
    return;
  }
  case OpKind::AsyncCopy:
    return emitAsyncCopy(op);
  case OpKind::AsyncCommit:
    *out_ << "  tilec::cp_async_commit();\n";
    return;
  case OpKind::AsyncWait:
    comment(op);
    if (!op.operands.empty()) // tma-copies: only cp.async copies need it
      *out_ << "  if (!" << tmaOnly_.at(op.operands[0]->id) << ") ";
    else
      *out_ << "  ";
    *out_ << "tilec::cp_async_wait<" << op.attrs[0].str() << ">();\n";
    return;
  case OpKind::Barrier:
    comment(op);
    if (!op.operands.empty()) // free-stages: the warps free the copy engine's stages themselves
      *out_ << "  if (!" << tmaOnly_.at(op.operands[0]->id) << ") __syncthreads();\n";
    else
      *out_ << "  __syncthreads();\n";
    return;
  default:
    return;
  }
}

/// A tile copied from global memory into a stage buffer with cp.async.
void KernelEmitter::emitAsyncCopy(const Op &op) {
  const Value *dst = op.operands[0], *ptrs = op.operands[1];
  const Value *mask = op.operands.size() > 2 ? op.operands[2] : nullptr;
  comment(op);
  std::string w = names_.fresh(nameOf(dst) + "_width");
  std::string templateArgs =
      accessWidth(op, w, nameOf(dst) + "_mask_uniform", "to shared memory (cp.async); ");
  if (dst->type.shape.size() == 1) // a plain array of the tile's elements
    *out_ << "  tilec::copy_run_async<" << layoutOf(ptrs) << ", " << templateArgs << ">("
          << nameOf(dst) << ", " << nameOf(ptrs) << ", ";
  else
    *out_ << "  tilec::copy_tile_async<" << layoutOf(ptrs) << ", " << templateArgs << ", "
          << smemTileType(dst) << ">(" << nameOf(dst) << ", " << nameOf(ptrs) << ", ";
  if (mask && mask->type.isTile())
    *out_ << nameOf(mask) << ", ";
  *out_ << "tid);\n";
}

} // namespace emit
} // namespace tilec
