// tl::dot and the software-pipelined loops that feed it.
//
// A dot stages its operands in shared memory (SmemTile: swizzled rows) and multiplies them on
// tensor cores (tilec::dot_smem); its result lives in the mma layout. Operands held in
// registers are written to the shared scratch buffer first; operands loaded by a pipelined
// loop are already there: the loop copies them with cp.async into a ring of NUM_STAGES stage
// buffers in dynamic shared memory, NUM_STAGES - 1 iterations ahead of the dot that reads them.
#include "codegen/KernelEmitter.h"

namespace tilec {

namespace {
std::string stagesExpr(const std::string &numStages) {
  return "(" + numStages + " > 2 ? " + numStages + " : 2)";
}

/// Bytes of one stage of a pipelined load, as host and device C++ alike.
std::string stageBytes(const Value *load) {
  const Type &t = load->type;
  return t.shape[0].operand() + " * " + t.shape[1].operand() + " * " + t.elem.sizeofExpr();
}
} // namespace

/// Bytes of the pipelined loops' stage rings, or "" without any. Pipelined loops run one after
/// another and drain before they end: they share the bytes.
static std::string stageRingBytes(const Kernel &k, const std::string &numStages) {
  std::vector<std::string> perLoop;
  walk(k, [&](const Op &op) {
    if (!op.pipelined)
      return;
    std::string sum;
    for (auto &o : op.regions[0]->ops)
      if (o->asyncCopy)
        sum += (sum.empty() ? "" : " + ") + stageBytes(o->result);
    std::string bytes = stagesExpr(numStages) + " * (" + sum + ")";
    if (std::find(perLoop.begin(), perLoop.end(), bytes) == perLoop.end())
      perLoop.push_back(bytes); // loops with the same stages need no max of equals
  });
  if (perLoop.empty())
    return "";
  std::string bytes = perLoop.back();
  for (size_t i = perLoop.size() - 1; i-- > 0;)
    bytes = "(" + perLoop[i] + " > " + bytes + " ? " + perLoop[i] + " : " + bytes + ")";
  return bytes;
}

/// `bytes` rounded up to 1024 (where the tensor cores' swizzled tiles must start), as host and
/// device C++ alike.
static std::string roundUp1024(const std::string &bytes) {
  return "((" + bytes + " + 1023) / 1024 * 1024)";
}

/// The local_alloc buffers, after the stage rings, each with its offset in dynamic shared
/// memory; `end` is set to the bytes they all need (or "" without any buffer).
static std::vector<std::pair<const Op *, std::string>>
localBuffers(const Kernel &k, const std::string &numStages, std::string &end) {
  std::vector<std::pair<const Op *, std::string>> out;
  std::string rings = stageRingBytes(k, numStages);
  end = rings;
  walk(k, [&](const Op &op) {
    if (op.kind != OpKind::LocalAlloc)
      return;
    std::string offset = end.empty() ? "0" : roundUp1024(end);
    out.push_back({&op, offset});
    end = (offset == "0" ? "" : offset + " + ") + stageBytes(op.result);
  });
  return out;
}

std::string dynamicSmemBytes(const Kernel &k, const std::string &numStages) {
  std::string end;
  localBuffers(k, numStages, end);
  return end;
}

namespace emit {
/// A tl::dot operand that stays the same over a loop: copied once into its own buffer.
void KernelEmitter::emitLocalAlloc(const Op &op) {
  comment(op);
  const Value *v = op.operands[0], *r = op.result;
  std::string end, offset;
  for (auto &[o, off] : localBuffers(k_, "NUM_STAGES", end))
    if (o == &op)
      offset = off;
  std::string T = r->type.elem.cuda(), name = nameOf(r);
  *out_ << "  // " << nameOf(v) << ", copied to shared memory once for the tensor cores "
        << "(local_alloc)\n";
  *out_ << "  " << T << "* " << name << " = reinterpret_cast<" << T << "*>(dsmem + " << offset
        << ");\n";
  *out_ << "  tilec::store_to_smem<" << layoutOf(v) << ", " << smemTileType(v) << ">(" << nameOf(v)
        << ", " << name << ", tid);\n";
  *out_ << "  __syncthreads();\n";
}

std::string KernelEmitter::smemTileType(const Value *operand) {
  const Type &t = operand->type;
  return "tilec::SmemTile<" + t.shape[0].str() + ", " + t.shape[1].str() + ", " + t.elem.cuda() +
         ">";
}

void KernelEmitter::emitDot(const Op &op) {
  comment(op);
  const Value *a = op.operands[0], *b = op.operands[1], *acc = op.operands[2];
  const Value *r = op.result;
  std::string L = layoutOf(r), name = nameOf(r), T = a->type.elem.cuda();
  std::string precision = op.opcode == "ieee" ? "tilec::DotIeee" : "tilec::DotTf32";
  std::string tileA = smemTileType(a), tileB = smemTileType(b);
  *out_ << "  " << r->type.cudaElem() << " " << name << "[" << L << "::ELEMS];\n";
  *out_ << "#pragma unroll\n";
  *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << name << "[i] = " << elem(acc, "i")
        << ";\n";
  // Each operand is read where it already is in shared memory (a pipeline stage, a
  // local_alloc buffer); register operands go through the scratch buffer (A, then B).
  std::string src[2];
  bool scratch = false;
  for (int i = 0; i < 2; ++i) {
    const Value *v = op.operands[size_t(i)];
    if (v->type.shared)
      src[i] = nameOf(v);
    else if (v->def && v->def->asyncCopy)
      src[i] = stageOf(v);
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
    *out_ << "  tilec::dot_regs_a<" << L << ", " << layoutOf(a) << ", " << tileB << ", "
          << precision << (op.dotTransposed[1] ? ", true" : "") << ">(" << nameOf(a) << ", "
          << src[1] << ", " << name << ", tid, smem);\n";
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
  if (op.dotTransposed[0] || op.dotTransposed[1])
    transposed = std::string(", ") + (op.dotTransposed[0] ? "true" : "false") + ", " +
                 (op.dotTransposed[1] ? "true" : "false");
  *out_ << "  tilec::dot_smem<" << L << ", " << tileA << ", " << tileB << ", " << precision
        << transposed << ">(" << pa << ", " << pb << ", " << name << ", tid);\n";
  if (scratch)
    *out_ << "  __syncthreads(); // the scratch buffer is free again\n";
}

/// The current stage buffer of a pipelined load's tile.
std::string KernelEmitter::stageOf(const Value *load) {
  const PipelinedLoad &p = pipelinedLoads_.at(load->id);
  return "(" + p.stages + " + " + readStage_ + " * " + p.tile + "::ELEMS)";
}

/// A pipelined load: its elements, copied into stage `writeStage_` of its ring.
void KernelEmitter::emitAsyncCopy(const Op &op) {
  const Value *r = op.result, *ptrs = op.operands[0];
  const Value *mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const PipelinedLoad &p = pipelinedLoads_.at(r->id);
  std::string L = layoutOf(r);
  comment(op);
  std::string w = names_.fresh(nameOf(r) + "_width");
  std::string templateArgs =
      accessWidth(op, w, nameOf(r) + "_mask_uniform", "to shared memory (cp.async); ");
  bool tileMask = mask && mask->type.isTile();
  std::string ptrArray = nameOf(ptrs);
  if (advancing_.count(ptrs->id)) {
    // This iteration's pointers: where they started plus the distance advanced.
    ptrArray = names_.fresh(ptrArray + "_now");
    std::string PL = layoutOf(ptrs);
    *out_ << "  " << ptrs->type.cudaElem() << " " << ptrArray << "[" << PL << "::ELEMS];\n";
    *out_ << "#pragma unroll\n";
    *out_ << "  for (int i = 0; i < " << PL << "::ELEMS; ++i) " << ptrArray
          << "[i] = " << elem(ptrs, "i") << ";\n";
  }
  std::string dst = "(" + p.stages + " + " + writeStage_ + " * " + p.tile + "::ELEMS)";
  *out_ << "  tilec::copy_tile_async<" << L << ", " << templateArgs << ", " << p.tile << ">(" << dst
        << ", " << ptrArray << ", ";
  if (tileMask)
    *out_ << nameOf(mask) << ", ";
  *out_ << "tid);\n";
}

/// One part of a pipelined loop's body: the producer (copies for a later iteration, with the
/// induction variable `iv`) or the rest (the consumer).
void KernelEmitter::emitPart(const Op &loop, bool producer) {
  const Region &body = *loop.regions[0];
  std::vector<const Op *> advanceOps; // the `p + step` of advancing pointer tiles
  for (size_t j = 0; j < loop.results.size(); ++j)
    if (advancing_.count(body.args[j + 1]->id))
      advanceOps.push_back(body.yields[j]->def);
  for (auto &o : body.ops) {
    bool mine = producer ? o->stage != Op::Stage::Consumer : o->stage != Op::Stage::Producer;
    if (!mine || std::count(advanceOps.begin(), advanceOps.end(), o.get()))
      continue;
    if (o->asyncCopy)
      emitAsyncCopy(*o);
    else
      emitOp(*o);
  }
  yieldFilter_.assign(loop.results.size(), false);
  for (size_t j = 0; j < loop.results.size(); ++j)
    yieldFilter_[j] =
        loop.producerCarried[j] == producer && !advancing_.count(body.args[j + 1]->id);
  assignYields(loop, body, 3);
  yieldFilter_.clear();
  if (producer)
    for (size_t j = 0; j < loop.results.size(); ++j)
      if (auto it = advancing_.find(body.args[j + 1]->id); it != advancing_.end())
        *out_ << "  " << it->second.advance << " += " << elem(it->second.step, "0") << ";\n";
}

/// Producer-carried pointer tiles that only advance by a scalar, start from pointers an
/// elementwise expression computed, and are not used after the loop: they become a scalar
/// distance (see `advancing_`). Returns which carried variables they are.
std::vector<bool> KernelEmitter::findAdvancingPointers(const Op &loop) {
  const Region &body = *loop.regions[0];
  std::vector<bool> found(loop.results.size(), false);
  for (size_t j = 0; j < loop.results.size(); ++j) {
    const Value *arg = body.args[j + 1], *init = loop.operands[3 + j], *next = body.yields[j];
    const Op *step = next->def;
    bool ok = loop.producerCarried[j] && arg->type.pointer && arg->type.isTile() &&
              loop.results[j]->uses == 0 && step && step->kind == OpKind::AddPtr &&
              step->operands[0] == arg && step->operands[1]->type.isScalar() && next->uses == 1 &&
              init->def && init->def->kind == OpKind::AddPtr;
    if (!ok)
      continue;
    found[j] = true;
    std::string advance = names_.fresh(loop.carriedNames[j] + "_advance");
    advancing_[arg->id] = Advancing{init->def, advance, step->operands[1]};
  }
  return found;
}

void KernelEmitter::emitPipelinedFor(const Op &op) {
  comment(op);
  std::vector<bool> advancing = findAdvancingPointers(op);
  declareCarried(op, 3, advancing);
  for (size_t j = 0; j < advancing.size(); ++j)
    if (advancing[j])
      *out_ << "  long long " << advancing_.at(op.regions[0]->args[j + 1]->id).advance
            << " = 0; // elements " << op.carriedNames[j] << " has advanced\n";
  const Region &body = *op.regions[0];
  std::string ivType = body.args[0]->type.cudaElem();
  std::string lo = elem(op.operands[0], "0"), hi = elem(op.operands[1], "0"),
              step = elem(op.operands[2], "0");
  std::string stages = names_.fresh("stages");
  *out_ << "  // Software pipeline: the loads that feed tl::dot are copied to shared memory "
           "(cp.async)\n"
        << "  // " << stages << " - 1 iterations ahead, each into its own ring of `" << stages
        << "` stage buffers.\n";
  *out_ << "  constexpr int " << stages << " = " << stagesExpr("NUM_STAGES") << ";\n";
  std::string offset = "0";
  for (auto &o : body.ops) {
    if (!o->asyncCopy)
      continue;
    std::string base = nameOf(o->result);
    PipelinedLoad p;
    p.tile = names_.fresh(base + "_smem");
    p.stages = names_.fresh(base + "_stages");
    std::string T = o->result->type.elem.cuda();
    *out_ << "  using " << p.tile << " = " << smemTileType(o->result) << ";\n";
    *out_ << "  " << T << "* " << p.stages << " = reinterpret_cast<" << T << "*>(dsmem + " << offset
          << ");\n";
    offset = (offset == "0" ? "" : offset + " + ") + stages + " * " + p.tile + "::BYTES";
    pipelinedLoads_[o->result->id] = p;
  }
  std::string ahead =
      names_.fresh((body.args[0]->name.empty() ? "k" : body.args[0]->name) + "_ahead");
  std::string iv = names_.fresh(body.args[0]->name.empty() ? "k" : body.args[0]->name);
  std::string readStage = names_.fresh("read_stage");
  auto producer = [&](const std::string &stage) {
    storage_[body.args[0]->id] = ahead;
    writeStage_ = stage;
    *out_ << "  if (" << ahead << " " << op.opcode << " " << hi << ") {\n";
    std::ostringstream inner;
    std::ostringstream *saved = out_;
    out_ = &inner;
    emitPart(op, true);
    out_ = saved;
    *out_ << indent(inner.str());
    *out_ << "  }\n";
    *out_ << "  " << ahead << " += " << step << ";\n";
    *out_ << "  tilec::cp_async_commit();\n";
  };
  *out_ << "  " << ivType << " " << ahead << " = " << lo << ";\n";
  std::string first = names_.fresh("stage");
  *out_ << "  for (int " << first << " = 0; " << first << " < " << stages << " - 1; ++" << first
        << ") {\n";
  {
    std::ostringstream inner;
    std::ostringstream *saved = out_;
    out_ = &inner;
    producer(first);
    out_ = saved;
    *out_ << indent(inner.str());
  }
  *out_ << "  }\n";
  *out_ << "  int " << readStage << " = 0;\n";
  *out_ << "  for (" << ivType << " " << iv << " = " << lo << "; " << iv << " " << op.opcode << " "
        << hi << "; " << iv << " += " << step << ") {\n";
  {
    std::ostringstream inner;
    std::ostringstream *saved = out_;
    out_ = &inner;
    *out_ << "  // this iteration's stage has landed, and every thread is done with the stage\n"
          << "  // the previous iteration read\n";
    *out_ << "  tilec::cp_async_wait<" << stages << " - 2>();\n  __syncthreads();\n";
    // The producer refills the stage the previous iteration read (every thread is past it)
    // before this iteration's dot, so that its copies are in flight during the dot.
    std::string writeStage = names_.fresh("write_stage");
    *out_ << "  const int " << writeStage << " = (" << readStage << " + " << stages << " - 1) % "
          << stages << ";\n";
    producer(writeStage);
    storage_[body.args[0]->id] = iv;
    readStage_ = readStage;
    emitPart(op, false);
    *out_ << "  " << readStage << " = " << readStage << " + 1 == " << stages
          << " ? 0 : " << readStage << " + 1;\n";
    out_ = saved;
    *out_ << indent(inner.str());
  }
  *out_ << "  }\n";
  *out_ << "  tilec::cp_async_wait<0>();\n  __syncthreads(); // the stage buffers are free again\n";
}

} // namespace emit
} // namespace tilec
