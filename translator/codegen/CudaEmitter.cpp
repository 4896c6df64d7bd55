// The CUDA emitter's driver: one kernel's signature, facts, layouts and body, and the file.
// See KernelEmitter.h for how tiles map onto threads in the generated code.
#include "codegen/FoldDepth.h"
#include "codegen/KernelEmitter.h"
#include "ir/PrintedForm.h"
#include "ir/SpecFacts.h"
#include "transforms/FuseArgReductions.h"

namespace tilec {
namespace emit {

void KernelEmitter::decideMaterialization() {
  walk(k_, [&](const Op &cop) {
    const Op *op = &cop;
    Value *r = op->result;
    if (r && op->kind != OpKind::Param && op->kind != OpKind::Constant &&
        op->kind != OpKind::Programs) {
      bool named = !r->name.empty();
      bool needsStatement = op->kind == OpKind::Load || op->kind == OpKind::ProgramId ||
                            op->kind == OpKind::NumPrograms || op->kind == OpKind::Reduce ||
                            op->kind == OpKind::Scan || op->kind == OpKind::Atomic ||
                            op->kind == OpKind::ConvertLayout || op->kind == OpKind::Trans ||
                            op->kind == OpKind::Reshape || op->kind == OpKind::Dot ||
                            op->kind == OpKind::SmemRing || op->kind == OpKind::StageView ||
                            op->kind == OpKind::StageRead || op->kind == OpKind::SmemBuffer ||
                            op->kind == OpKind::Flip || op->kind == OpKind::Sort ||
                            op->kind == OpKind::Gather || op->kind == OpKind::Histogram ||
                            op->kind == OpKind::InlineAsm || op->kind == OpKind::MbarrierRing ||
                            op->kind == OpKind::FreedRing || op->kind == OpKind::WarpSpecialized ||
                            op->kind == OpKind::ProducerThread ||
                            op->kind == OpKind::WarpgroupTurns;
      if (named || r->uses > 1 || needsStatement)
        arrays_.insert(r->id);
    }
    if (const Value *arg = fusedArgReduction(*op))
      fusedMax_[arg->id] = op;
    // Reductions and conversions read their operand as an array.
    if ((op->kind == OpKind::Reduce || op->kind == OpKind::ConvertLayout ||
         op->kind == OpKind::Trans || op->kind == OpKind::Reshape) &&
        op->operands[0]->def && op->operands[0]->def->kind != OpKind::Param)
      arrays_.insert(op->operands[0]->id);
    // Flips, gathers and histograms read every tile operand (index, mask) as an array.
    if (op->kind == OpKind::Flip || op->kind == OpKind::Sort || op->kind == OpKind::Gather ||
        op->kind == OpKind::Histogram)
      for (const Value *v : op->operands)
        if (v->def && v->def->kind != OpKind::Param)
          arrays_.insert(v->id);
    bool rank1Scan = op->kind == OpKind::Scan && op->result->type.shape.size() == 1;
    if ((op->kind == OpKind::Reduce && op->result->type.isScalar()) || rank1Scan ||
        (op->kind == OpKind::Atomic && op->result->type.isScalar()))
      needSmem("tilec::kScratchBytes");
    // An async copy takes its pointers and mask as arrays.
    if (op->kind == OpKind::AsyncCopy || op->kind == OpKind::TmaCopy)
      for (size_t j = 1; j < op->operands.size() && j < 3; ++j)
        if (op->operands[j]->def && op->operands[j]->def->kind != OpKind::Param)
          arrays_.insert(op->operands[j]->id);
    // tl::dot writes register operands to shared memory from arrays.
    if (op->kind == OpKind::Dot)
      for (size_t j = 0; j < 2; ++j)
        if (op->operands[j]->def && !op->operands[j]->type.shared)
          arrays_.insert(op->operands[j]->id);
    // Loads and stores take their masks, `other` tiles and stored values as arrays; so do
    // atomics that go a run at a time.
    if (op->kind == OpKind::Load || op->kind == OpKind::Store || op->kind == OpKind::TmaStore ||
        (op->kind == OpKind::Atomic && !op->accessWidth.isConst(1)))
      for (size_t j = 1; j < op->operands.size() && (op->kind != OpKind::TmaStore || j < 3); ++j)
        if (op->operands[j]->type.isTile() && op->operands[j]->def &&
            op->operands[j]->def->kind != OpKind::Param)
          arrays_.insert(op->operands[j]->id);
    // Carried values live in variables; what a region yields is computed before it is
    // copied into them, so that no copy reads a variable already overwritten.
    for (auto &reg : op->regions) {
      if (op->kind == OpKind::Reduce || op->kind == OpKind::Scan)
        continue; // combine functions are lambdas: their arguments are parameters
      for (Value *a : reg->args)
        arrays_.insert(a->id);
      for (Value *y : reg->yields)
        if (y->def && y->def->kind != OpKind::Param && y->def->kind != OpKind::Constant)
          arrays_.insert(y->id);
    }
    for (Value *res : op->results)
      arrays_.insert(res->id);
  });
}

std::string KernelEmitter::elem(const Value *v, const std::string &i) {
  if ((v->def && v->def->kind == OpKind::Param) || (!v->def && !materialized(v)))
    return nameOf(v);
  if (materialized(v))
    return v->type.isTile() ? nameOf(v) + "[" + i + "]" : nameOf(v);
  // C++ computes operators on integers narrower than int in int: a folded result converts
  // back, so that it wraps and has its type (uint8_t, not int) as a materialized one would.
  const ElemType &t = v->type.elem;
  bool narrow = t.isInteger() && t.bits() < 32;
  if (narrow && (v->def->kind == OpKind::Binary || v->def->kind == OpKind::Unary) &&
      isOperatorToken(v->def->opcode))
    return t.cuda() + compute(*v->def, i); // compute gave "(x op y)"
  return compute(*v->def, i);
}

std::string KernelEmitter::compute(const Op &op, const std::string &i) {
  auto arg = [&](size_t n) { return elem(op.operands[n], i); };
  const Value *r = op.result;
  switch (op.kind) {
  case OpKind::Constant:
    // Integer constants of types other than int spell their type, so that device calls
    // (tilec::maximum(a[i], int64_t(5)), load_vec's `other`) deduce one type for both.
    if (r->type.elem.isInteger() && !r->type.elem.is(ScalarKind::I32))
      return r->type.elem.cuda() + "(" + op.attrs[0].str() + ")";
    // Integer values of floating type read as floating literals (`0.0f`).
    if (op.attrs[0].isConst() && r->type.elem.is(ScalarKind::F32))
      return std::to_string(op.attrs[0].value()) + ".0f";
    if (op.attrs[0].isConst() && r->type.elem.is(ScalarKind::F64))
      return std::to_string(op.attrs[0].value()) + ".0";
    if (op.attrs[0].isConst() && !r->type.elem.isInteger() && !r->type.elem.is(ScalarKind::Bool))
      return "tilec::cast<" + r->type.elem.cuda() + ">(" + op.attrs[0].str() + ")";
    // Parenthesized unless one token: passes make constants such as `BLOCK_N - 1`.
    return op.attrs[0].operand();
  case OpKind::Arange: {
    std::string c = layoutOf(r) + "::coord(tid, " + i + ")";
    return op.attrs[0].isConst(0) ? c : "(" + op.attrs[0].str() + " + " + c + ")";
  }
  case OpKind::Splat:
    return arg(0);
  case OpKind::Broadcast: {
    // From a slice (a [M, 1] or [1, N] tile): the element this thread holds for the same
    // row or column. From a [1] tile: its only element.
    const Value *src = op.operands[0];
    const Layout &sl = k_.layouts[size_t(src->layout)];
    if (sl.kind == Layout::Kind::Slice && sl.parent == r->layout)
      return elem(src, layoutOf(src) + "::from_parent(" + i + ")");
    if (sl.kind == Layout::Kind::Slice) // the same axes of a Blocked3D, sliced in another order
      return elem(src, "tilec::slice_index<" + layoutOf(src) + ", " + layoutOf(r) + ">(" + i + ")");
    return elem(src, "0");
  }
  case OpKind::ExpandDims:
    return elem(op.operands[0], i); // the same elements, one more (unit) dimension
  case OpKind::Binary:
    // `%` of floats is fmod, as in the interpreter (C++'s `%` takes integers only).
    if (op.opcode == "%" && (r->type.elem.is(ScalarKind::F32) || r->type.elem.is(ScalarKind::F64)))
      return std::string(r->type.elem.is(ScalarKind::F32) ? "fmodf" : "::fmod") + "(" + arg(0) +
             ", " + arg(1) + ")";
    // A template element type may be a float: tilec::mod picks `%` or fmod per instance.
    if (op.opcode == "%" && !r->type.elem.isKnown())
      return "tilec::mod(" + arg(0) + ", " + arg(1) + ")";
    if (isOperatorToken(op.opcode))
      return "(" + arg(0) + " " + op.opcode + " " + arg(1) + ")";
    return "tilec::" + op.opcode + "(" + arg(0) + ", " + arg(1) + ")";
  case OpKind::Unary:
    if (isOperatorToken(op.opcode))
      return "(" + op.opcode + arg(0) + ")";
    return "tilec::" + op.opcode + "(" + arg(0) + ")";
  case OpKind::Ternary:
    return "tilec::" + op.opcode + "(" + arg(0) + ", " + arg(1) + ", " + arg(2) + ")";
  case OpKind::Select:
    return "(" + arg(0) + " ? " + arg(1) + " : " + arg(2) + ")";
  case OpKind::Cast:
    return "tilec::cast<" + r->type.elem.cuda() + ">(" + arg(0) + ")";
  case OpKind::Bitcast:
    return "tilec::bitcast<" + r->type.elem.cuda() + ">(" + arg(0) + ")";
  case OpKind::AddPtr:
    return "(" + arg(0) + " + " + arg(1) + ")";
  case OpKind::Hint:
    return arg(0);
  case OpKind::Random:
    return "tilec::" + op.opcode + "(uint64_t(" + arg(0) + "), unsigned(" + arg(1) + "))";
  case OpKind::ProgramId:
    if (op.zeroIfGridOne)
      return "(" + gridFactName(op.axis) + " ? 0 : int(blockIdx." + "xyz"[op.axis] + "))";
    return std::string("int(blockIdx.") + "xyz"[op.axis] + ")";
  case OpKind::NumPrograms:
    return std::string("int(gridDim.") + "xyz"[op.axis] + ")";
  case OpKind::Programs:
    return programsName_;
  case OpKind::Param:
  case OpKind::Load:
  case OpKind::Store:
  case OpKind::Dot:
  case OpKind::LocalAlloc:
  case OpKind::SmemRing:
  case OpKind::StageView:
  case OpKind::StageRead:
  case OpKind::AsyncCopy:
  case OpKind::AsyncCommit:
  case OpKind::AsyncWait:
  case OpKind::Barrier:
  case OpKind::SmemBuffer:
  case OpKind::SmemTranspose:
  case OpKind::StaticAssert:
  case OpKind::Flip:
  case OpKind::Sort:
  case OpKind::Gather:
  case OpKind::Histogram:
  case OpKind::InlineAsm:
  case OpKind::TmaMap:
  case OpKind::TmaCopy:
  case OpKind::MbarrierRing:
  case OpKind::MbarrierArrive:
  case OpKind::MbarrierWait:
  case OpKind::MbarrierInval:
  case OpKind::MbarrierRestart:
  case OpKind::FreedRing:
  case OpKind::WarpSpecialized:
  case OpKind::ProducerThread:
  case OpKind::ProducerBranch:
  case OpKind::TmaLoad:
  case OpKind::MbarrierRelease:
  case OpKind::WarpgroupTurns:
  case OpKind::TurnBegin:
  case OpKind::TurnEnd:
  case OpKind::TurnsFinish:
  case OpKind::PrefetchL2:
  case OpKind::DotWait:
  case OpKind::TmaStore:
  case OpKind::TmaStoreDrain:
    break;
  }
  return "/*unreachable*/";
}

void KernelEmitter::comment(const Op &op, const char *indent) {
  if (o_.lineDirectives && op.line)
    *out_ << "#line " << op.line << " \"" << o_.inputPath << "\"\n";
  if (!op.srcText.empty())
    *out_ << indent << "// " << o_.inputName << ":" << op.line << ": " << oneLine(op.srcText)
          << "\n";
}

void KernelEmitter::emitOp(const Op &op) {
  if (op.kind == OpKind::For)
    return emitFor(op);
  if (op.kind == OpKind::SmemRing || op.kind == OpKind::StageView ||
      op.kind == OpKind::StageRead || op.kind == OpKind::AsyncCopy ||
      op.kind == OpKind::AsyncCommit ||
      op.kind == OpKind::AsyncWait || op.kind == OpKind::Barrier ||
      op.kind == OpKind::SmemBuffer || op.kind == OpKind::SmemTranspose)
    return emitSchedule(op);
  if (op.kind == OpKind::TmaMap || op.kind == OpKind::TmaCopy ||
      op.kind == OpKind::MbarrierRing || op.kind == OpKind::MbarrierArrive ||
      op.kind == OpKind::MbarrierWait || op.kind == OpKind::MbarrierInval ||
      op.kind == OpKind::MbarrierRestart || op.kind == OpKind::FreedRing ||
      op.kind == OpKind::WarpSpecialized || op.kind == OpKind::ProducerThread ||
      op.kind == OpKind::ProducerBranch || op.kind == OpKind::TmaLoad ||
      op.kind == OpKind::MbarrierRelease || op.kind == OpKind::TmaStore ||
      op.kind == OpKind::TmaStoreDrain)
    return emitTma(op);
  if (op.kind == OpKind::Dot || op.kind == OpKind::DotWait)
    return emitDot(op);
  if (op.kind == OpKind::WarpgroupTurns || op.kind == OpKind::TurnBegin ||
      op.kind == OpKind::TurnEnd || op.kind == OpKind::TurnsFinish)
    return emitTurns(op);
  if (op.kind == OpKind::PrefetchL2)
    return emitPrefetchL2(op);
  if (op.kind == OpKind::LocalAlloc)
    return emitLocalAlloc(op);
  if (op.kind == OpKind::If)
    return emitIf(op);
  if (op.kind == OpKind::While)
    return emitWhile(op);
  if (op.kind == OpKind::Return) {
    *out_ << "  return;\n";
    return;
  }
  if (op.kind == OpKind::Reduce)
    return emitReduce(op);
  if (op.kind == OpKind::ConvertLayout || op.kind == OpKind::Trans || op.kind == OpKind::Reshape)
    return emitRelayout(op);
  if (op.kind == OpKind::Scan)
    return emitScan(op);
  if (op.kind == OpKind::Flip)
    return emitFlip(op);
  if (op.kind == OpKind::Sort)
    return emitSort(op);
  if (op.kind == OpKind::Gather)
    return emitGather(op);
  if (op.kind == OpKind::Histogram)
    return emitHistogram(op);
  if (op.kind == OpKind::Print || op.kind == OpKind::Assert || op.kind == OpKind::StaticAssert)
    return emitDebug(op);
  if (op.kind == OpKind::Atomic)
    return emitAtomic(op);
  if (op.kind == OpKind::Load)
    return emitLoad(op);
  if (op.kind == OpKind::Store)
    return emitStore(op);
  if (op.kind == OpKind::InlineAsm)
    return emitInlineAsm(op);
  const Value *r = op.result;
  if (!r || !materialized(r) || op.kind == OpKind::Param)
    return;
  comment(op);
  const std::string &name = nameOf(r);
  if (r->type.isScalar()) {
    *out_ << "  " << r->type.cudaConstScalar() << " " << name << " = " << compute(op, "0")
          << ";\n";
    return;
  }
  std::string L = layoutOf(r);
  std::string run;
  std::string index = elementIndex(op, &run);
  *out_ << run;
  *out_ << "  " << r->type.cudaElem() << " " << name << "[" << L << "::ELEMS];\n";
  *out_ << "#pragma unroll\n";
  *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << name << "[i] = "
        << compute(op, index) << ";\n";
}

void KernelEmitter::emitRegion(const Region &r) {
  const Region *saved = region_;
  region_ = &r;
  // Elementwise tile ops in a row over one layout share one loop (emitElementwise); scalars
  // and values folded into their users write nothing between them, or a line before it.
  std::vector<const Op *> row;
  auto flush = [&] {
    emitElementwise(row);
    row.clear();
  };
  for (auto &op : r.ops) {
    if (castsALoad(*op)) {
      emitOp(*op); // its own loop, before the row's: it reads only the load before them
    } else if (isElementwiseTile(*op)) {
      if (!row.empty() && row.front()->result->layout != op->result->layout)
        flush();
      row.push_back(op.get());
    } else if (writesNothingOrScalar(*op)) {
      emitOp(*op);
    } else {
      flush();
      emitOp(*op);
    }
  }
  flush();
  region_ = saved;
}

/// Writes a nested region (and `after`, e.g. the yields) one level deeper.
std::string KernelEmitter::nested(const Region &r, const std::function<void()> &after) {
  std::ostringstream inner;
  std::ostringstream *saved = out_;
  out_ = &inner;
  emitRegion(r);
  after();
  out_ = saved;
  return indent(inner.str());
}

std::string KernelEmitter::run() {
  for (const char *n : {"tid", "i", "THREADS", "NUM_WARPS", "NUM_STAGES", "PIPELINE_STAGES", "DIV16",
                        "smem", "dsmem"})
    names_.reserve(n);
  for (auto &tp : k_.templateParams)
    names_.reserve(tp.name);
  for (size_t i = 0; i < k_.layouts.size(); ++i)
    names_.reserve(layoutName(int(i)));
  for (auto &p : k_.params) {
    names_.reserve(div16FactName(p));
    names_.reserve(oneFactName(p));
  }
  for (int axis = 1; axis < 3; ++axis)
    names_.reserve(gridFactName(axis));
  names_.reserve(mapsFactName());
  // Parameters keep their source names, unless the generated code reserves one (`i`, `tid`):
  // the signature then uses the fresh name too.
  std::vector<std::string> paramNames(k_.params.size());
  for (auto &op : k_.body.ops)
    if (op->kind == OpKind::Param)
      paramNames[size_t(op->attrs[0].value())] = nameOf(op->result);

  decideMaterialization();
  nameTmaMaps();
  limitFoldDepth(k_, arrays_);
  std::ostringstream bodyStream;
  out_ = &bodyStream;
  emitRegion(k_.body);
  std::string body = bodyStream.str();

  std::ostringstream os;
  os << "// " << k_.name << ", from " << o_.inputName << ".\n"
     << "// NUM_WARPS and NUM_STAGES are launch options; DIV16 has bit i set when argument i is\n"
     << "// a 16-byte aligned pointer or an integer divisible by 16"
     << (usedSpecFacts(k_).empty() ? "" : ";\n// its bits past the arguments' are the facts below")
     << ".\n";
  if (!hasProducerWarpgroup(k_))
    os << "// TILEC_LAUNCH_BOUNDS is __launch_bounds__, with room for more blocks per SM where the\n"
          "// runtime compiles again for the next occupancy step (-DTILEC_MIN_BLOCKS).\n";
  os << "template <";
  for (auto &tp : k_.templateParams)
    os << tp.cppType << " " << tp.name << ", ";
  os << "int NUM_WARPS, int NUM_STAGES, unsigned long long DIV16>\n";
  // Threads per warp: the device library's tilec::WARP_SIZE, which is the target's warp size
  // (tests/unit/target_test.cpp holds the two together).
  const std::string warpSize = "tilec::WARP_SIZE";
  if (hasProducerWarpgroup(k_))
    os << "// Warp-specialized: a producer warpgroup of tilec::producer_threads(THREADS) threads "
          "follows the\n// program's THREADS and issues the copies of its pipelined loop.\n"
       << "__global__ void __launch_bounds__(NUM_WARPS * " << warpSize
       << " + tilec::producer_threads(NUM_WARPS * " << warpSize << "), tilec::ws_min_blocks(NUM_WARPS * "
       << warpSize << "))\n"
       << k_.name << "(";
  else
    os << "__global__ void TILEC_LAUNCH_BOUNDS(NUM_WARPS * " << warpSize << ")\n" << k_.name << "(";
  for (size_t i = 0; i < k_.params.size(); ++i)
    os << (i ? ", " : "") << k_.params[i].type.cudaElem() << " " << paramNames[i];
  os << tmaParams() << ") {\n";
  os << "  constexpr int THREADS = NUM_WARPS * " << warpSize << ";\n";
  // Only the facts this kernel's analysis used: in the body, or in the run lengths of its
  // layouts (declared below).
  std::string usesFacts = body;
  for (const Layout &l : k_.layouts)
    usesFacts += " " + l.maxVec.str();
  for (size_t i = 0; i < k_.params.size(); ++i) {
    std::string fact = div16FactName(k_.params[i]);
    if (usesFacts.find(fact) == std::string::npos)
      continue;
    if (hasDiv16Bit(i))
      os << "  constexpr bool " << fact << " = (DIV16 >> " << i << ") & 1u;\n";
    else
      os << "  constexpr bool " << fact << " = false; // no DIV16 bit past the 61st argument\n";
  }
  for (const SpecFact &f : usedSpecFacts(k_))
    os << "  constexpr bool " << f.name << " = (DIV16 >> " << f.bit << ") & 1u; // "
       << (f.param >= 0 ? paramNames[size_t(f.param)] + " == 1"
           : f.maps     ? std::string("every tensor map encoded")
                        : std::string("a grid of one program along ") + "xyz"[f.axis])
       << " in this specialization\n";
  if (k_.tilesTransposed)
    os << "  // Rank-2 tiles are held transposed (transpose-tiles): the source's [M, N] tiles "
          "are\n  // [N, M] here, so that accesses run along their rows, as the memory does.\n";
  for (size_t i = 0; i < k_.layouts.size(); ++i) {
    const Layout &l = k_.layouts[i];
    std::string name = layoutName(int(i));
    if (l.kind == Layout::Kind::Mma) {
      os << "  // " << name << ": a [" << l.shape[0].str() << ", " << l.shape[1].str()
         << "] tl::dot result, as the tensor cores' accumulators hold it (mma.sync, wgmma)\n";
      os << "  using " << name << " = tilec::MmaLayout<" << l.shape[0].str() << ", "
         << l.shape[1].str() << ", THREADS>;\n";
      continue;
    }
    if (l.kind == Layout::Kind::Slice && rank3Axes(k_, int(i))) {
      os << "  // " << name << ": " << layoutName(l.parent) << " tiles without their dimension "
         << l.dim << " (reduced, or broadcast back)\n";
      os << "  using " << name << " = tilec::Slice<" << layoutName(l.parent) << ", " << l.dim
         << ">;\n";
      continue;
    }
    if (l.kind == Layout::Kind::Slice) {
      std::string parent = layoutName(l.parent);
      os << "  // " << name << ": the " << (l.dim == 1 ? "rows" : "columns") << " of " << parent
         << " tiles (dimension " << l.dim << " reduced or broadcast)\n";
      os << "  using " << name << " = tilec::Slice<" << parent << ", " << l.dim << ">;\n";
      continue;
    }
    // A run length known per specialization only gets a name of its own, so that the layout
    // line stays short.
    std::string vec = l.maxVec.str();
    if (!l.maxVec.isConst()) {
      vec = name + "_RUN";
      os << "  // " << vec << ": the widest access to " << name
         << " tiles in this specialization (16 bytes at most, as aligned as the addresses)\n";
      os << "  constexpr int " << vec << " = tilec::vector_width(" << l.maxVec.str() << ");\n";
    }
    if (l.shape.size() == 3) {
      os << "  // " << name << ": a [" << l.shape[0].str() << ", " << l.shape[1].str() << ", "
         << l.shape[2].str() << "] tile over THREADS threads, row-major, runs of up to "
         << vec << " consecutive elements along the last dimension per thread\n";
      os << "  using " << name << " = tilec::Blocked3D<" << l.shape[0].str() << ", "
         << l.shape[1].str() << ", " << l.shape[2].str() << ", THREADS, " << vec << ">;\n";
      continue;
    }
    if (l.shape.size() == 2) {
      os << "  // " << name << ": a [" << l.shape[0].str() << ", " << l.shape[1].str()
         << "] tile over THREADS threads, row-major, runs of up to " << vec
         << " consecutive elements of a row per thread"
         << (l.warpsDown ? "; warps split the rows first, so that each row's reduction stays "
                           "within a warp"
                         : "")
         << "\n";
      os << "  using " << name << " = tilec::Blocked2D<" << l.shape[0].str() << ", "
         << l.shape[1].str() << ", THREADS, " << vec << (l.warpsDown ? ", /*WARPS_DOWN=*/true" : "")
         << ">;\n";
      continue;
    }
    os << "  // " << name << ": a [" << l.shape[0].str()
       << "] tile over THREADS threads, runs of up to " << vec
       << " consecutive elements per thread\n";
    os << "  using " << name << " = tilec::Blocked1D<" << l.shape[0].str() << ", THREADS, " << vec
       << ">;\n";
  }
  if (containsWord(body, "PIPELINE_STAGES")) {
    if (std::optional<SymExpr> loop = loopNumStages(k_))
      os << "  // Stage buffers per ring of a pipelined loop: the loop's num_stages option, at "
            "least 2\n"
         << "  constexpr int PIPELINE_STAGES = " << pipelineStagesDefinition(loop->operand())
         << ";\n";
    else
      os << "  // Stage buffers per ring of a pipelined loop: the launch option NUM_STAGES, at "
            "least 2\n"
         << "  constexpr int PIPELINE_STAGES = " << pipelineStagesDefinition("NUM_STAGES")
         << ";\n";
  }
  if (body.find("tid") != std::string::npos)
    os << "  const int tid = threadIdx.x;\n";
  if (!smemSizes_.empty()) {
    std::string bytes = smemSizes_.back();
    for (size_t i = smemSizes_.size() - 1; i-- > 0;)
      bytes = "tilec::cmax(" + smemSizes_[i] + ", " + bytes + ")";
    os << "  // Shared memory for reductions, scans, scalar atomics, layout conversions and dot\n"
       << "  // operands: each use ends with a barrier, so they share one buffer, sized for the\n"
       << "  // largest.\n"
       << "  __shared__ alignas(" << (smemHoldsDotOperands_ ? 1024 : 16)
       << ") unsigned char smem[" << bytes << "];\n"
       << "  // ptxas would only say \"too much shared data\", without naming the kernel.\n"
       << "  static_assert(sizeof(smem) <= tilec::kMaxStaticSmemBytes, \""
       << staticSmemMessage(k_.name) << "\");\n";
  }
  if (std::string dyn = dynamicSmemBytes(k_, "NUM_STAGES"); !dyn.empty())
    os << "  // Dynamic shared memory for the stage rings of pipelined loops and the buffers of\n"
       << "  // loop-invariant dot operands; the launcher passes its size: " << dyn << " bytes.\n"
       << "  // (aligned to 1024 bytes: whole swizzle patterns for the tensor cores)\n"
       << "  extern __shared__ __align__(1024) unsigned char dsmem[];\n";
  // Dimensions known per specialization only, checked naming each (the layouts' own
  // static_asserts name none).
  for (const TileDim &d : symbolicTileDims(k_))
    os << "  static_assert(" << guardedCheck(d.guard, "tilec::tile_dim_ok(" + d.text + ")")
       << ", " << quoted(tileDimMessage(k_, d.text)) << ");\n";
  for (const TileShape &shape : symbolicTileShapes(k_))
    os << "  static_assert("
       << guardedCheck(shape.guard, "tilec::tile_elems_ok(" + shape.joined() + ")") << ", "
       << quoted(tileElemsMessage(k_, shape)) << ");\n";
  os << "\n";
  os << body << "}\n";
  return os.str();
}

} // namespace emit

std::string staticSmemMessage(const std::string &kernel) {
  return "kernel '" + kernel + "' needs more than the 48 KiB of static shared memory a thread "
         "block may have, as scratch for its reductions, scans, layout conversions or dot "
         "operands; use smaller tiles, or loop over smaller pieces";
}

std::string emitCuda(const std::vector<const Kernel *> &kernels, const EmitOptions &opts) {
  std::ostringstream os;
  os << "// " << opts.stem << ".cu: CUDA for the kernels of " << opts.inputName
     << ", generated by tilec.\n"
     << "// Edit " << opts.inputName << " and translate again rather than editing this file.\n";
  std::string body;
  for (const Kernel *k : kernels)
    body += "\n" + emit::KernelEmitter(*k, opts).run();
  // The device library declares the fp8 types only on request (they cost compile time).
  if (body.find("float8_e") != std::string::npos)
    os << "#define TILEC_FP8 // this file uses the fp8 types\n";
  os << "#include <tilec/device.cuh>\n" << body;
  return os.str();
}

} // namespace tilec
