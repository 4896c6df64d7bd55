// tl::dot and the shared-memory buffers it reads.
//
// A dot stages its operands in shared memory (SmemTile: swizzled rows) and multiplies them on
// tensor cores (tilec::dot_smem); its result lives in the mma layout. An operand already in
// shared memory (a stage of a pipelined loop's ring, a local_alloc buffer) is read there;
// operands held in registers are written to the shared scratch buffer first.
#include "codegen/KernelEmitter.h"

namespace tilec {

/// `text` (C++ over NUM_STAGES and PIPELINE_STAGES) with the launch option spelled `numStages`:
/// the host's name for it.
static std::string withNumStages(const std::string &text, const std::string &numStages) {
  std::string t = replaceWord(text, "PIPELINE_STAGES", pipelineStagesDefinition("NUM_STAGES"));
  return replaceWord(t, "NUM_STAGES", numStages);
}

std::string pipelineStagesDefinition(const std::string &numStages) {
  return "(" + numStages + " > 2 ? " + numStages + " : 2)";
}

std::string dynamicSmemBytes(const Kernel &k, const std::string &numStages) {
  if (k.dynamicSmemBytes.isConst(0))
    return "";
  std::optional<SymExpr> loop = loopNumStages(k);
  return withNumStages(k.dynamicSmemBytes.str(), loop ? loop->operand() : numStages);
}

std::optional<SymExpr> loopNumStages(const Kernel &k) {
  std::optional<SymExpr> stages;
  walk(k, [&](const Op &op) {
    if (op.kind == OpKind::For && !op.loopStages.isConst(0) && !stages)
      stages = op.loopStages;
  });
  return stages;
}

namespace emit {
/// A tl::dot operand that stays the same over a loop: copied once into its own buffer.
void KernelEmitter::emitLocalAlloc(const Op &op) {
  comment(op);
  const Value *v = op.operands[0];
  *out_ << "  // " << nameOf(v) << ", copied to shared memory once for the tensor cores "
        << "(local_alloc)\n";
  declareDynamicSmem(op);
  *out_ << "  tilec::store_to_smem<" << layoutOf(v) << ", " << smemTileType(v) << ">(" << nameOf(v)
        << ", " << nameOf(op.result) << ", tid);\n";
  *out_ << "  __syncthreads();\n";
}

/// `T* const name = ...`: where an allocation op's buffer starts in dynamic shared memory
/// (its offset from allocate-smem).
void KernelEmitter::declareDynamicSmem(const Op &op) {
  std::string T = op.result->type.elem.cuda(), offset = op.attrs.empty() ? "0" : op.attrs[0].str();
  *out_ << "  " << T << "* const " << nameOf(op.result) << " = reinterpret_cast<" << T
        << "*>(dsmem + " << offset << ");\n";
}

/// The SmemTile of an operand in shared memory, or of one stage of a ring (its last two
/// dimensions).
std::string KernelEmitter::smemTileType(const Value *operand) {
  const Type &t = operand->type;
  size_t n = t.shape.size();
  return "tilec::SmemTile<" + t.shape[n - 2].str() + ", " + t.shape[n - 1].str() + ", " +
         t.elem.cuda() + ">";
}

/// C++ that is true where `dot` (operands in shared memory, or A in registers) runs on wgmma,
/// each of two warpgroups holding its own rows of the result: the device library's conditions
/// for the call emitDot prints.
std::string KernelEmitter::dotRunsOnWgmma(const Op &dot) {
  const Value *a = dot.operands[0], *b = dot.operands[1], *r = dot.result;
  std::string L = layoutOf(r), T = a->type.elem.cuda(), acc = r->type.cudaElem();
  std::string transB = dot.dotTransposed[1] ? "true" : "false";
  std::string fits =
      dot.dotRegistersA
          ? "tilec::wgmma_regs_a_fits<" + L + ", " + layoutOf(a) + ", " + smemTileType(b) + ", " +
                transB + ", " + T + ", " + acc + ">()"
          : "tilec::wgmma_fits<" + L + ", " + smemTileType(a) + ", " + smemTileType(b) + ", " +
                (dot.dotTransposed[0] ? "true" : "false") + ", " + transB + ", " + T + ", " +
                acc + ">()";
  return "tilec::rows_per_warpgroup<" + L + ", THREADS>() && " + fits;
}

void KernelEmitter::emitDot(const Op &op) {
  if (op.kind == OpKind::DotWait) {
    *out_ << "  // the tensor cores are done with the tl::dots issued without waiting\n";
    for (const Value *v : op.operands)
      *out_ << "  tilec::dot_wait(" << nameOf(v) << ");\n";
    return;
  }
  comment(op);
  // Issued without waiting: a dot_wait after the next tl::dot completes it. A zero
  // accumulator: the product is written, not added (and no zeros are written first).
  const std::string noWait =
      op.dotZeroAcc
          ? std::string(", /*WAIT=*/") + (op.dotNoWait ? "false" : "true") + ", /*ZERO=*/true"
      : op.dotNoWait ? ", /*WAIT=*/false"
                     : "";
  const Value *a = op.operands[0], *b = op.operands[1], *acc = op.operands[2];
  const Value *r = op.result;
  std::string L = layoutOf(r), name = nameOf(r), T = a->type.elem.cuda();
  std::string precision = op.opcode == "ieee" ? "tilec::DotIeee" : "tilec::DotTf32";
  std::string tileA = smemTileType(a), tileB = smemTileType(b);
  *out_ << "  " << r->type.cudaElem() << " " << name << "[" << L << "::ELEMS];";
  if (op.dotZeroAcc) {
    *out_ << " // no zeros written first: the dot writes its product (ZERO)\n";
  } else {
    *out_ << "\n#pragma unroll\n";
    *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << name << "[i] = " << elem(acc, "i")
          << ";\n";
  }
  // Each operand is read where it already is in shared memory (a pipeline stage, a
  // local_alloc buffer); register operands go through the scratch buffer (A, then B).
  std::string src[2];
  bool scratch = false;
  for (int i = 0; i < 2; ++i) {
    const Value *v = op.operands[size_t(i)];
    if (v->type.shared)
      src[i] = nameOf(v);
    else
      scratch = true;
  }
  if (op.dotRegistersA) {
    // A straight from the registers the previous dot's result is in (staged in the scratch
    // buffer by the device library only where the tensor cores cannot take it); B is in
    // shared memory (dot-registers asks for it).
    needSmem("tilec::dot_regs_a_scratch_bytes<" + L + ", " + layoutOf(a) + ", " + tileB + ", " +
             (op.dotTransposed[1] ? "true" : "false") + ", " + T + ", " + r->type.cudaElem() +
             ">()");
    smemHoldsDotOperands_ = true;
    // TRANS_B is spelled out when WAIT follows it.
    std::string transB = op.dotTransposed[1]             ? ", true"
                         : op.dotNoWait || op.dotZeroAcc ? ", false"
                                                         : "";
    *out_ << "  tilec::dot_regs_a<" << L << ", " << layoutOf(a) << ", " << tileB << ", "
          << precision << transB << noWait << ">(" << nameOf(a) << ", " << src[1] << ", " << name
          << ", tid, smem);\n";
    return;
  }
  if (scratch) {
    needSmem("tilec::dot_scratch_bytes<" + tileA + ", " + tileB + ">()");
    smemHoldsDotOperands_ = true;
    *out_ << "  // register operands, to shared memory for the tensor cores\n";
    bool fromRegisters[2] = {src[0].empty(), src[1].empty()};
    for (int i = 0; i < 2; ++i)
      if (fromRegisters[i]) {
        src[i] = names_.fresh(name + (i == 0 ? "_a" : "_b"));
        *out_ << "  " << T << "* " << src[i] << " = reinterpret_cast<" << T << "*>(smem)"
              << (i == 0 ? "" : " + " + tileA + "::ELEMS") << ";\n";
      }
    for (int i = 0; i < 2; ++i)
      if (fromRegisters[i])
        *out_ << "  tilec::store_to_smem<" << layoutOf(op.operands[size_t(i)]) << ", "
              << (i == 0 ? tileA : tileB) << ">(" << nameOf(op.operands[size_t(i)]) << ", "
              << src[i] << ", tid);\n";
    *out_ << "  __syncthreads();\n";
  }
  const std::string &pa = src[0], &pb = src[1];
  std::string transposed;
  for (int i = 0; i < 2; ++i)
    if (op.dotTransposed[i])
      *out_ << "  // " << nameOf(op.operands[size_t(i)]) << " holds "
            << (i == 0 ? "A as [K, M]" : "B as [N, K]")
            << ": the tensor cores read it transposed from shared memory\n";
  if (op.dotTransposed[0] || op.dotTransposed[1] || op.dotNoWait || op.dotZeroAcc)
    transposed = std::string(", ") + (op.dotTransposed[0] ? "true" : "false") + ", " +
                 (op.dotTransposed[1] ? "true" : "false");
  *out_ << "  tilec::dot_smem<" << L << ", " << tileA << ", " << tileB << ", " << precision
        << transposed << noWait << ">(" << pa << ", " << pb << ", " << name << ", tid);\n";
  if (scratch)
    *out_ << "  __syncthreads(); // the scratch buffer is free again\n";
}

} // namespace emit
} // namespace tilec
