#include "transforms/KMajorOperands.h"

#include "ir/Rewriter.h"

namespace tilec {

void runKMajorOperands(Kernel &k) {
  std::vector<Op *> dots;
  walkOps(k, [&](Op &op) {
    if (op.kind != OpKind::Dot || op.dotTransposed[1] || op.dotRegistersA)
      return;
    const Value *b = op.operands[1];
    bool eightBit = b->type.elem.isKnown() && b->type.elem.bits() == 8;
    if (eightBit && b->def && b->def->kind == OpKind::StageView)
      dots.push_back(&op);
  });
  for (Op *dot : dots) {
    Value *b = dot->operands[1];
    Value *ring = b->def->operands[0];
    // The buffer lives next to the ring (allocate-smem keeps them in one run).
    Type t = b->type;
    std::swap(t.shape[0], t.shape[1]);
    Op *buffer = Builder(k, ring->def, /*after=*/true).create(OpKind::SmemBuffer, {}, t);
    buffer->result->name = b->name.empty() ? "operand_k_major" : b->name + "_k_major";
    buffer->srcText = ring->def->srcText;
    buffer->line = ring->def->line;

    Builder before(k, dot);
    Op *transpose = before.create(OpKind::SmemTranspose, {b, buffer->result}, Type{}, false);
    transpose->srcText = "the stage of " + (b->name.empty() ? std::string("B") : b->name) +
                         ", K-major for the tensor cores (8-bit operands)";
    transpose->line = dot->line;
    Op *barrier = before.create(OpKind::Barrier, {}, Type{}, false);
    barrier->srcText = "the K-major copy is complete";
    barrier->line = dot->line;
    dot->operands[1] = buffer->result;
    b->uses--;
    buffer->result->uses++;
    dot->dotTransposed[1] = true;
  }
}

} // namespace tilec
