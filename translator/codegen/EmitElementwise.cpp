// Elementwise tile ops in a row (arithmetic, comparisons, selects, casts, math, aranges,
// broadcasts: each result element from the same element of its operands), written as one loop
// over the elements rather than one loop per op:
//
//   float m_new[L0::ELEMS];
//   float z_2[L0::ELEMS];
// #pragma unroll
//   for (int i = 0; i < L0::ELEMS; ++i) {
//     m_new[i] = tilec::maximum(m_1[i], tilec::cast<float>(inp[i]));
//     z_2[i] = ... m_new[i] ...;
//   }
//
// nvcc keeps the order it is given within a block (source-order scheduling), so one loop per
// op computed every element of one value before the next value began, and each value's
// elements stayed live together: FlagGems' online softmax took 39 registers a thread that
// way, 32 in one loop (ptxas, sm_90a), and 32 is what four blocks of 512 threads may use.
// (Not every kernel gains: over the corpus 29 kernels need fewer registers, 40 more; see
// bench/NOTES.md.) An element reads only the same element of values of its layout (or, for a
// mask equal over runs, the first element of its run), which an earlier statement of the same
// or an earlier iteration, or an earlier loop, wrote: the order changes nothing else.
#include "codegen/KernelEmitter.h"
#include "ir/Rewriter.h"

namespace tilec {
namespace emit {

namespace {

/// The kinds emitOp writes as `value[i] = compute(op, i)` (or a scalar `= compute(op, 0)`):
/// register arithmetic, random numbers and the program's coordinates.
bool computedPerElement(OpKind k) {
  return isRegisterArithmetic(k) || k == OpKind::Random || k == OpKind::ProgramId ||
         k == OpKind::NumPrograms || k == OpKind::Programs;
}

} // namespace

bool KernelEmitter::isElementwiseTile(const Op &op) const {
  return computedPerElement(op.kind) && op.result && materialized(op.result) &&
         !op.result->type.isScalar();
}

// A loaded tile converted (`tl::cast<float>(tl::load(...))`) keeps a loop of its own, written
// where the row it belongs to begins: in one loop with its users, ptxas gave the layer norm
// example's forward 72-80 registers instead of 64 (one block per SM fewer).
bool KernelEmitter::castsALoad(const Op &op) const {
  return op.kind == OpKind::Cast && isElementwiseTile(op) && op.operands[0]->def &&
         op.operands[0]->def->kind == OpKind::Load;
}

bool KernelEmitter::writesNothingOrScalar(const Op &op) const {
  if (op.kind == OpKind::Param)
    return true;
  return computedPerElement(op.kind) &&
         (!op.result || !materialized(op.result) || op.result->type.isScalar());
}

std::string KernelEmitter::elementIndex(const Op &op, std::string *runDecl) {
  const Value *r = op.result;
  const SymExpr &same = r->info.constancy;
  if (!r->type.elem.is(ScalarKind::Bool) || r->type.shape.size() != 1 ||
      (same.isConst() && same.value() == 1))
    return "i";
  // A mask equal over runs of elements (e.g. `cols < n` with n divisible by 16): each run
  // computes it once, so that one value per run, not one per element, stays live.
  const std::string &name = nameOf(r);
  std::string run = names_.fresh(name + "_run");
  *runDecl += "  constexpr int " + run + " = tilec::gcd(" + layoutOf(r) + "::VEC, " +
              same.operand() + "); // " + name + " is the same over runs this long\n";
  return "i - i % " + run;
}

void KernelEmitter::emitElementwise(const std::vector<const Op *> &ops) {
  if (ops.empty())
    return;
  if (ops.size() == 1)
    return emitOp(*ops.front());
  const std::string L = layoutOf(ops.front()->result);
  std::vector<std::string> index;
  for (const Op *op : ops) {
    std::string run;
    index.push_back(elementIndex(*op, &run));
    *out_ << run;
    *out_ << "  " << op->result->type.cudaElem() << " " << nameOf(op->result) << "[" << L
          << "::ELEMS];\n";
  }
  *out_ << "#pragma unroll\n";
  *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) {\n";
  for (size_t n = 0; n < ops.size(); ++n) {
    comment(*ops[n], "    ");
    *out_ << "    " << nameOf(ops[n]->result) << "[i] = " << compute(*ops[n], index[n])
          << ";\n";
  }
  *out_ << "  }\n";
}

} // namespace emit
} // namespace tilec
