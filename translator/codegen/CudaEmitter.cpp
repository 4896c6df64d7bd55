// The CUDA emitter: one readable __global__ template per kernel.
//
// Every tile lives in registers as a per-thread array laid out by its layout (Lk), so an
// elementwise op is a loop over the thread's elements and the mapping is visible in the code:
// element i of thread `tid` is tile index Lk::coord(tid, i). Single-use elementwise results
// are folded into their user's expression; named values, loads and multi-use values get
// arrays. Global accesses go through tilec::load_vec/store_vec with the access width that
// layout assignment derived.
#include "analysis/AxisInfo.h"
#include "codegen/Codegen.h"
#include "codegen/NameTable.h"
#include "transforms/LayoutAssignment.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace tilec {

namespace {

bool isOperatorToken(const std::string& op) {
  return !op.empty() && !std::isalpha(static_cast<unsigned char>(op[0]));
}

std::string oneLine(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == '\n' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space)
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}

/// The `other` of a load without one: zero of the element type.
std::string zeroOf(const ElemType& t) {
  if (t.is(ScalarKind::F32))
    return "0.0f";
  if (t.is(ScalarKind::F64))
    return "0.0";
  if (t.isInteger())
    return t.cuda() + "(0)";
  return "tilec::cast<" + t.cuda() + ">(0)";
}

class KernelEmitter {
public:
  KernelEmitter(const Kernel& k, const EmitOptions& o) : k_(k), o_(o) {}
  std::string run();

private:
  const Kernel& k_;
  const EmitOptions& o_;
  NameTable names_;
  std::ostringstream* out_ = nullptr; // the region being written
  std::set<int> arrays_;              // values materialized into variables, by id
  std::map<int, std::string> storage_; // carried values: the variable that holds them
  // Shared memory: one buffer for every use (reductions, scans, scalar atomics, layout
  // conversions). Each use ends with a barrier, so they can all take the same bytes; the
  // buffer is as large as the largest. Sizes as constexpr C++, in first-use order.
  std::vector<std::string> smemSizes_;
  void needSmem(const std::string& bytes) {
    if (std::find(smemSizes_.begin(), smemSizes_.end(), bytes) == smemSizes_.end())
      smemSizes_.push_back(bytes);
  }

  void decideMaterialization();
  bool materialized(const Value* v) const { return arrays_.count(v->id) > 0; }
  std::string layoutOf(const Value* v) const { return layoutName(v->layout); }
  std::string elem(const Value* v, const std::string& i);
  std::string compute(const Op& op, const std::string& i);
  void comment(const Op& op);
  void emitOp(const Op& op);
  void emitLoad(const Op& op);
  void emitStore(const Op& op);
  void emitFor(const Op& op);
  void emitWhile(const Op& op);
  void emitReduce(const Op& op);
  void emitScan(const Op& op);
  void emitAtomic(const Op& op);
  std::string combineLambda(const Op& op, const std::string& elemType);
  void emitIf(const Op& op);
  void emitRegion(const Region& r);
  std::string nested(const Region& r, const std::function<void()>& after);
  void declareCarried(const Op& op, size_t firstInit);
  void assignYields(const Op& op, const Region& r, size_t firstInit);
  const std::string& nameOf(const Value* v) {
    auto it = storage_.find(v->id);
    return it != storage_.end() ? it->second : names_.of(v);
  }
  std::string arrayArg(const Value* v, const std::string& i) {
    return v->type.isTile() ? "&" + nameOf(v) + "[" + i + "]" : elem(v, i);
  }
};

void KernelEmitter::decideMaterialization() {
  walk(k_, [&](const Op& cop) {
    const Op* op = &cop;
    Value* r = op->result;
    if (r && op->kind != OpKind::Param && op->kind != OpKind::Constant) {
      bool named = !r->name.empty();
      bool needsStatement = op->kind == OpKind::Load || op->kind == OpKind::ProgramId ||
                            op->kind == OpKind::NumPrograms || op->kind == OpKind::Reduce ||
                            op->kind == OpKind::Scan || op->kind == OpKind::Atomic ||
                            op->kind == OpKind::ConvertLayout || op->kind == OpKind::Trans ||
                            op->kind == OpKind::Reshape;
      if (named || r->uses > 1 || needsStatement)
        arrays_.insert(r->id);
    }
    // Reductions and conversions read their operand as an array.
    if ((op->kind == OpKind::Reduce || op->kind == OpKind::ConvertLayout ||
         op->kind == OpKind::Trans || op->kind == OpKind::Reshape) &&
        op->operands[0]->def &&
        op->operands[0]->def->kind != OpKind::Param)
      arrays_.insert(op->operands[0]->id);
    if ((op->kind == OpKind::Reduce && op->result->type.isScalar()) || op->kind == OpKind::Scan ||
        (op->kind == OpKind::Atomic && op->result->type.isScalar()))
      needSmem("tilec::kScratchBytes");
    // Loads and stores take their masks, `other` tiles and stored values as arrays.
    if (op->kind == OpKind::Load || op->kind == OpKind::Store)
      for (size_t j = 1; j < op->operands.size(); ++j)
        if (op->operands[j]->type.isTile() && op->operands[j]->def &&
            op->operands[j]->def->kind != OpKind::Param)
          arrays_.insert(op->operands[j]->id);
    // Carried values live in variables; what a region yields is computed before it is
    // copied into them, so that no copy reads a variable already overwritten.
    for (auto& reg : op->regions) {
      if (op->kind == OpKind::Reduce || op->kind == OpKind::Scan)
        continue; // combine functions are lambdas: their arguments are parameters
      for (Value* a : reg->args)
        arrays_.insert(a->id);
      for (Value* y : reg->yields)
        if (y->def && y->def->kind != OpKind::Param && y->def->kind != OpKind::Constant)
          arrays_.insert(y->id);
    }
    for (Value* res : op->results)
      arrays_.insert(res->id);
  });
}

std::string KernelEmitter::elem(const Value* v, const std::string& i) {
  if ((v->def && v->def->kind == OpKind::Param) || (!v->def && !materialized(v)))
    return nameOf(v);
  if (materialized(v))
    return v->type.isTile() ? nameOf(v) + "[" + i + "]" : nameOf(v);
  return compute(*v->def, i);
}

std::string KernelEmitter::compute(const Op& op, const std::string& i) {
  auto arg = [&](size_t n) { return elem(op.operands[n], i); };
  const Value* r = op.result;
  switch (op.kind) {
  case OpKind::Constant:
    // Integer constants of types other than int spell their type, so that device calls
    // (tilec::maximum(a[i], int64_t(5)), load_vec's `other`) deduce one type for both.
    if (op.attrs[0].isConst() && r->type.elem.isInteger() && !r->type.elem.is(ScalarKind::I32))
      return r->type.elem.cuda() + "(" + op.attrs[0].str() + ")";
    // Integer values of floating type read as floating literals (`0.0f`).
    if (op.attrs[0].isConst() && r->type.elem.is(ScalarKind::F32))
      return std::to_string(op.attrs[0].value()) + ".0f";
    if (op.attrs[0].isConst() && r->type.elem.is(ScalarKind::F64))
      return std::to_string(op.attrs[0].value()) + ".0";
    if (op.attrs[0].isConst() && !r->type.elem.isInteger() && !r->type.elem.is(ScalarKind::Bool))
      return "tilec::cast<" + r->type.elem.cuda() + ">(" + op.attrs[0].str() + ")";
    return op.attrs[0].str();
  case OpKind::Arange: {
    std::string c = layoutOf(r) + "::coord(tid, " + i + ")";
    return op.attrs[0].isConst(0) ? c : "(" + op.attrs[0].str() + " + " + c + ")";
  }
  case OpKind::Splat:
    return arg(0);
  case OpKind::Broadcast: {
    // From a slice (a [M, 1] or [1, N] tile): the element this thread holds for the same
    // row or column. From a [1] tile: its only element.
    const Value* src = op.operands[0];
    if (k_.layouts[size_t(src->layout)].kind == Layout::Kind::Slice)
      return elem(src, layoutOf(src) + "::from_parent(" + i + ")");
    return elem(src, "0");
  }
  case OpKind::ExpandDims:
    return elem(op.operands[0], i); // the same elements, one more (unit) dimension
  case OpKind::Binary:
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
    return std::string("int(blockIdx.") + "xyz"[op.axis] + ")";
  case OpKind::NumPrograms:
    return std::string("int(gridDim.") + "xyz"[op.axis] + ")";
  case OpKind::Param:
  case OpKind::Load:
  case OpKind::Store:
    break;
  }
  return "/*unreachable*/";
}

void KernelEmitter::comment(const Op& op) {
  if (o_.lineDirectives && op.line)
    *out_ << "#line " << op.line << " \"" << o_.inputPath << "\"\n";
  if (!op.srcText.empty())
    *out_ << "  // " << o_.inputName << ":" << op.line << ": " << oneLine(op.srcText) << "\n";
}

void KernelEmitter::emitLoad(const Op& op) {
  const Value* r = op.result;
  const Value* ptrs = op.operands[0];
  const Value* mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const Value* other = op.operands.size() > 2 ? op.operands[2] : nullptr;
  const std::string& name = nameOf(r);
  comment(op);
  if (r->type.isScalar()) {
    std::string p = elem(ptrs, "0");
    *out_ << "  const " << r->type.cudaElem() << " " << name << " = ";
    if (mask)
      *out_ << elem(mask, "0") << " ? *" << p << " : "
            << (other ? elem(other, "0") : zeroOf(r->type.elem));
    else
      *out_ << "*" << p;
    *out_ << ";\n";
    return;
  }
  std::string L = layoutOf(r);
  std::string w = names_.fresh(name + "_width");
  *out_ << "  // " << ptrs->info.contiguity.str() << " consecutive addresses, aligned to "
        << ptrs->info.divisibility.str() << " bytes\n";
  *out_ << "  constexpr int " << w << " = tilec::vector_width(" << op.accessWidth.str() << ");\n";
  std::string templateArgs = w;
  if (mask && mask->type.isTile()) {
    std::string u = names_.fresh(name + "_mask_uniform");
    *out_ << "  constexpr bool " << u << " = " << mask->info.constancy.operand() << " % " << w
          << " == 0;\n";
    templateArgs += ", " + u;
  }
  *out_ << "  " << r->type.cudaElem() << " " << name << "[" << L << "::ELEMS];\n";
  *out_ << "#pragma unroll\n";
  *out_ << "  for (int i = 0; i < " << L << "::ELEMS; i += " << w << ")\n";
  *out_ << "    tilec::load_vec<" << templateArgs << ">(&" << name << "[i], " << elem(ptrs, "i");
  if (mask)
    *out_ << ", " << arrayArg(mask, "i") << ", "
          << (other ? arrayArg(other, "i") : zeroOf(r->type.elem));
  *out_ << ");\n";
}

void KernelEmitter::emitStore(const Op& op) {
  const Value* ptrs = op.operands[0];
  const Value* val = op.operands[1];
  const Value* mask = op.operands.size() > 2 ? op.operands[2] : nullptr;
  comment(op);
  if (ptrs->type.isScalar()) {
    // One thread stores a scalar for the whole program instance.
    *out_ << "  if (tid == 0" << (mask ? " && " + elem(mask, "0") : "") << ") *"
          << elem(ptrs, "0") << " = " << elem(val, "0") << ";\n";
    return;
  }
  std::string L = layoutOf(ptrs);
  std::string w = names_.fresh("store_width");
  *out_ << "  // " << ptrs->info.contiguity.str() << " consecutive addresses, aligned to "
        << ptrs->info.divisibility.str() << " bytes\n";
  *out_ << "  constexpr int " << w << " = tilec::vector_width(" << op.accessWidth.str() << ");\n";
  std::string templateArgs = w;
  if (mask && mask->type.isTile()) {
    std::string u = names_.fresh("store_mask_uniform");
    *out_ << "  constexpr bool " << u << " = " << mask->info.constancy.operand() << " % " << w
          << " == 0;\n";
    templateArgs += ", " + u;
  }
  *out_ << "#pragma unroll\n";
  *out_ << "  for (int i = 0; i < " << L << "::ELEMS; i += " << w << ")\n";
  *out_ << "    tilec::store_vec<" << templateArgs << ">(" << elem(ptrs, "i") << ", "
        << arrayArg(val, "i");
  if (mask)
    *out_ << ", " << arrayArg(mask, "i");
  *out_ << ", " << L << "::owner(tid));\n";
}

void KernelEmitter::emitOp(const Op& op) {
  if (op.kind == OpKind::For)
    return emitFor(op);
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
  if (op.kind == OpKind::ConvertLayout) {
    comment(op);
    const Value* in = op.operands[0];
    const Value* r = op.result;
    std::string T = r->type.cudaElem(), name = nameOf(r), from = layoutOf(in), to = layoutOf(r);
    needSmem(from + "::TILE_SIZE * sizeof(" + T + ")");
    *out_ << "  // " << nameOf(in) << " moved from layout " << from << " to " << to
          << " through shared memory\n";
    *out_ << "  " << T << " " << name << "[" << to << "::ELEMS];\n";
    *out_ << "  tilec::convert_layout<" << from << ", " << to << ">(" << nameOf(in) << ", " << name
          << ", tid, smem);\n";
    return;
  }
  if (op.kind == OpKind::Trans || op.kind == OpKind::Reshape) {
    comment(op);
    const Value* in = op.operands[0];
    const Value* r = op.result;
    std::string T = r->type.cudaElem(), name = nameOf(r), from = layoutOf(in), to = layoutOf(r);
    bool trans = op.kind == OpKind::Trans;
    needSmem(trans ? "tilec::transpose_bytes<" + from + ", " + T + ">()"
                   : "tilec::tile_elements<" + from + ">() * sizeof(" + T + ")");
    *out_ << "  // " << (trans ? "transposed" : "reshaped") << " through shared memory\n";
    *out_ << "  " << T << " " << name << "[" << to << "::ELEMS];\n";
    *out_ << "  tilec::" << (trans ? "transpose" : "reshape") << "<" << from << ", " << to << ">("
          << nameOf(in) << ", " << name << ", tid, smem);\n";
    return;
  }
  if (op.kind == OpKind::Scan)
    return emitScan(op);
  if (op.kind == OpKind::Atomic)
    return emitAtomic(op);
  if (op.kind == OpKind::Load)
    return emitLoad(op);
  if (op.kind == OpKind::Store)
    return emitStore(op);
  const Value* r = op.result;
  if (!r || !materialized(r) || op.kind == OpKind::Param)
    return;
  comment(op);
  const std::string& name = nameOf(r);
  if (r->type.isScalar()) {
    *out_ << "  const " << r->type.cudaElem() << " " << name << " = " << compute(op, "0") << ";\n";
    return;
  }
  std::string L = layoutOf(r);
  *out_ << "  " << r->type.cudaElem() << " " << name << "[" << L << "::ELEMS];\n";
  *out_ << "#pragma unroll\n";
  *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << name << "[i] = " << compute(op, "i")
        << ";\n";
}

/// A named lambda for a combine region: [&](T a, T b) { ...; return y; }.
std::string KernelEmitter::combineLambda(const Op& op, const std::string& elemType) {
  if (op.regions.empty()) {
    if (op.opcode == "cumprod")
      return "[](" + elemType + " a, " + elemType + " b) { return a * b; }";
    return "";
  }
  const Region& r = *op.regions[0];
  std::string name = names_.fresh("combine");
  std::string a = nameOf(r.args[0]), b = nameOf(r.args[1]);
  *out_ << "  auto " << name << " = [&](" << elemType << " " << a << ", " << elemType << " " << b
        << ") {\n";
  *out_ << nested(r, [&] { *out_ << "  return " << elem(r.yields[0], "0") << ";\n"; });
  *out_ << "  };\n";
  return name;
}

void KernelEmitter::emitReduce(const Op& op) {
  comment(op);
  const Value* in = op.operands[0];
  const Value* r = op.result;
  std::string L = layoutOf(in), arr = nameOf(in);
  if (r->type.isTile()) {
    // One dimension of a rank-2 tile: the result is held in the slice layout.
    std::string fn = op.opcode == "sum"       ? "tilec::SumOp{}"
                     : op.opcode == "max"     ? "tilec::MaxOp{}"
                     : op.opcode == "min"     ? "tilec::MinOp{}"
                     : op.opcode == "xor_sum" ? "tilec::XorOp{}"
                                              : combineLambda(op, in->type.cudaElem());
    std::string T = r->type.cudaElem(), name = nameOf(r), dim = op.attrs[0].str();
    needSmem("tilec::axis_scratch_bytes<" + L + ", " + dim + ", " + T + ">()");
    *out_ << "  " << T << " " << name << "[" << layoutOf(r) << "::ELEMS];\n";
    *out_ << "  tilec::reduce_axis<" << L << ", " << dim << ">(" << arr << ", " << name << ", "
          << fn << ", tid, smem);\n";
    return;
  }
  if (op.opcode == "argmax" || op.opcode == "argmin") {
    // NaNs are ignored, as by tl::max / tl::min (and the interpreter).
    *out_ << "  const int " << nameOf(r) << " = tilec::arg_reduce_tile<" << L << ", "
          << (op.opcode == "argmax" ? "true" : "false") << ", " << in->type.cudaElem()
          << ", /*NAN_WINS=*/false>(" << arr << ", tid, smem);\n";
    return;
  }
  std::string fn = op.opcode == "sum"       ? "tilec::SumOp{}"
                   : op.opcode == "max"     ? "tilec::MaxOp{}"
                   : op.opcode == "min"     ? "tilec::MinOp{}"
                   : op.opcode == "xor_sum" ? "tilec::XorOp{}"
                                            : combineLambda(op, in->type.cudaElem());
  *out_ << "  const " << r->type.cudaElem() << " " << nameOf(r) << " = tilec::reduce_tile<" << L
        << ">(" << arr << ", " << fn << ", tid, smem);\n";
}

void KernelEmitter::emitScan(const Op& op) {
  comment(op);
  const Value* r = op.result;
  std::string L = layoutOf(r), name = nameOf(r), T = r->type.cudaElem();
  std::string fn = op.opcode == "cumsum" ? "tilec::SumOp{}" : combineLambda(op, T);
  *out_ << "  " << T << " " << name << "[" << L << "::ELEMS];\n";
  *out_ << "#pragma unroll\n";
  *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << name << "[i] = "
        << elem(op.operands[0], "i") << ";\n";
  *out_ << "  tilec::scan_tile<" << L << ", " << T << ", decltype(" << fn << ")"
        << (op.attrs[0].isConst(0) ? "" : ", true") << ">(" << name << ", " << fn
        << ", tid, smem);\n";
}

void KernelEmitter::emitAtomic(const Op& op) {
  comment(op);
  const Value* r = op.result;
  bool cas = op.opcode == "cas";
  const Value* ptrs = op.operands[0];
  const Value* mask = (!cas && op.operands.size() > 2) ? op.operands[2] : nullptr;
  std::string T = r->type.cudaElem(), name = nameOf(r);
  auto call = [&](const std::string& i) {
    std::string c = "tilec::atomic_" + op.opcode + "(" + elem(ptrs, i) + ", " + elem(op.operands[1], i);
    if (cas)
      c += ", " + elem(op.operands[2], i);
    return c + ")";
  };
  if (r->type.isScalar()) {
    // One thread performs it for the program instance; every thread gets the old value.
    *out_ << "  const " << T << " " << name << " = tilec::block_broadcast((tid == 0"
          << (mask ? " && " + elem(mask, "0") : "") << ") ? " << call("0") << " : " << T
          << "(0), 0, smem);\n";
    return;
  }
  // Threads holding copies of elements (replicated layouts) skip them.
  std::string L = layoutOf(r);
  *out_ << "  " << T << " " << name << "[" << L << "::ELEMS];\n";
  *out_ << "#pragma unroll\n";
  *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i)\n";
  *out_ << "    " << name << "[i] = (" << L << "::owner(tid)" << (mask ? " && " + elem(mask, "i") : "")
        << ") ? " << call("i") << " : " << T << "(0);\n";
}

void KernelEmitter::emitRegion(const Region& r) {
  for (auto& op : r.ops)
    emitOp(*op);
}

/// Writes a nested region (and `after`, e.g. the yields) one level deeper.
std::string KernelEmitter::nested(const Region& r, const std::function<void()>& after) {
  std::ostringstream inner;
  std::ostringstream* saved = out_;
  out_ = &inner;
  emitRegion(r);
  after();
  out_ = saved;
  std::string text = inner.str(), indented;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    indented += (line.empty() || line[0] == '#' ? "" : "  ") + line + "\n";
    pos = nl == std::string::npos ? text.size() : nl + 1;
  }
  return indented;
}

/// Declares the variables that hold `op`'s carried values, initialized from its operands.
void KernelEmitter::declareCarried(const Op& op, size_t firstInit) {
  for (size_t i = 0; i < op.results.size(); ++i) {
    const Value* init = op.operands[firstInit + i];
    std::string name = names_.fresh(op.carriedNames[i]);
    storage_[op.results[i]->id] = name;
    for (auto& r : op.regions)
      if (r->args.size() > i + (op.kind == OpKind::For ? 1 : 0))
        storage_[r->args[i + (op.kind == OpKind::For ? 1 : 0)]->id] = name;
    const Type& t = init->type;
    if (t.isScalar()) {
      *out_ << "  " << t.cudaElem() << " " << name << " = " << elem(init, "0") << ";\n";
    } else {
      std::string L = layoutName(init->layout);
      *out_ << "  " << t.cudaElem() << " " << name << "[" << L << "::ELEMS];\n";
      *out_ << "#pragma unroll\n";
      *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << name << "[i] = "
            << elem(init, "i") << ";\n";
    }
  }
}

/// Copies what region `r` yields into the carried variables.
void KernelEmitter::assignYields(const Op& op, const Region& r, size_t firstInit) {
  // A yield that is another carried variable (a swap) is read before anything is written.
  std::vector<std::string> sources(r.yields.size());
  bool staged = false;
  for (size_t i = 0; i < r.yields.size(); ++i) {
    const Value* y = r.yields[i];
    if (nameOf(y) == nameOf(op.results[i]) || y == op.operands[firstInit + i])
      continue; // unchanged
    bool otherCarried = false;
    for (size_t j = 0; j < op.results.size(); ++j)
      otherCarried |= j != i && nameOf(y) == nameOf(op.results[j]);
    if (otherCarried && !staged) {
      staged = true;
    }
    sources[i] = "y";
  }
  std::vector<std::string> from(r.yields.size());
  for (size_t i = 0; i < r.yields.size(); ++i) {
    if (sources[i].empty())
      continue;
    const Value* y = r.yields[i];
    from[i] = nameOf(y);
    if (staged) {
      std::string tmp = names_.fresh(op.carriedNames[i] + "_next");
      if (y->type.isScalar()) {
        *out_ << "  const " << y->type.cudaElem() << " " << tmp << " = " << elem(y, "0") << ";\n";
      } else {
        std::string L = layoutName(y->layout);
        *out_ << "  " << y->type.cudaElem() << " " << tmp << "[" << L << "::ELEMS];\n";
        *out_ << "#pragma unroll\n";
        *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << tmp << "[i] = "
              << elem(y, "i") << ";\n";
      }
      from[i] = tmp;
    }
  }
  for (size_t i = 0; i < r.yields.size(); ++i) {
    if (sources[i].empty())
      continue;
    const Value* y = r.yields[i];
    const std::string& to = nameOf(op.results[i]);
    if (y->type.isScalar()) {
      *out_ << "  " << to << " = " << (staged ? from[i] : elem(y, "0")) << ";\n";
    } else {
      std::string L = layoutName(y->layout);
      *out_ << "#pragma unroll\n";
      *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << to << "[i] = "
            << (staged ? from[i] + "[i]" : elem(y, "i")) << ";\n";
    }
  }
}

void KernelEmitter::emitFor(const Op& op) {
  comment(op);
  declareCarried(op, 3);
  const Region& body = *op.regions[0];
  std::string iv = names_.fresh(body.args[0]->name.empty() ? "k" : body.args[0]->name);
  storage_[body.args[0]->id] = iv;
  std::string lo = elem(op.operands[0], "0"), hi = elem(op.operands[1], "0"),
              step = elem(op.operands[2], "0");
  if (op.unrolled)
    *out_ << "#pragma unroll\n";
  *out_ << "  for (" << body.args[0]->type.cudaElem() << " " << iv << " = " << lo << "; " << iv
        << " " << op.opcode << " " << hi << "; " << iv << " += " << step << ") {\n";
  *out_ << nested(body, [&] { assignYields(op, body, 3); });
  *out_ << "  }\n";
}

void KernelEmitter::emitWhile(const Op& op) {
  comment(op);
  declareCarried(op, 0);
  const Region& cond = *op.regions[0];
  const Region& body = *op.regions[1];
  // The condition is computed at the top of each iteration from the carried values.
  *out_ << "  while (true) {\n";
  *out_ << nested(cond, [&] { *out_ << "  if (!" << elem(cond.yields[0], "0") << ") break;\n"; });
  *out_ << nested(body, [&] { assignYields(op, body, 0); });
  *out_ << "  }\n";
}

void KernelEmitter::emitIf(const Op& op) {
  comment(op);
  size_t firstInit = op.constexprCond.empty() ? 1 : 0;
  declareCarried(op, firstInit);
  std::string cond = op.constexprCond.empty() ? elem(op.operands[0], "0") : op.constexprCond;
  *out_ << "  if " << (op.constexprCond.empty() ? "" : "constexpr ") << "(" << cond << ") {\n";
  *out_ << nested(*op.regions[0], [&] { assignYields(op, *op.regions[0], firstInit); });
  std::string elseText = nested(*op.regions[1], [&] { assignYields(op, *op.regions[1], firstInit); });
  if (elseText.find_first_not_of(" \n") != std::string::npos)
    *out_ << "  } else {\n" << elseText;
  *out_ << "  }\n";
}

std::string KernelEmitter::run() {
  for (const char* n : {"tid", "i", "THREADS", "NUM_WARPS", "NUM_STAGES", "DIV16", "smem"})
    names_.reserve(n);
  for (auto& tp : k_.templateParams)
    names_.reserve(tp.name);
  for (size_t i = 0; i < k_.layouts.size(); ++i)
    names_.reserve(layoutName(int(i)));
  for (auto& p : k_.params)
    names_.reserve(div16FactName(p));
  // Parameters keep their source names, unless the generated code reserves one (`i`, `tid`):
  // the signature then uses the fresh name too.
  std::vector<std::string> paramNames(k_.params.size());
  for (auto& op : k_.body.ops)
    if (op->kind == OpKind::Param)
      paramNames[size_t(op->attrs[0].value())] = nameOf(op->result);

  decideMaterialization();
  std::ostringstream bodyStream;
  out_ = &bodyStream;
  emitRegion(k_.body);
  std::string body = bodyStream.str();

  std::ostringstream os;
  os << "// " << k_.name << ", from " << o_.inputName << ".\n"
     << "// NUM_WARPS and NUM_STAGES are launch options; DIV16 has bit i set when argument i is\n"
     << "// a 16-byte aligned pointer or an integer divisible by 16.\n";
  os << "template <";
  for (auto& tp : k_.templateParams)
    os << tp.cppType << " " << tp.name << ", ";
  os << "int NUM_WARPS, int NUM_STAGES, unsigned DIV16>\n";
  os << "__global__ void __launch_bounds__(NUM_WARPS * 32)\n" << k_.name << "(";
  for (size_t i = 0; i < k_.params.size(); ++i)
    os << (i ? ", " : "") << k_.params[i].type.cudaElem() << " " << paramNames[i];
  os << ") {\n";
  os << "  constexpr int THREADS = NUM_WARPS * 32;\n";
  // Only the facts this kernel's analysis used.
  for (size_t i = 0; i < k_.params.size(); ++i) {
    std::string fact = div16FactName(k_.params[i]);
    if (body.find(fact) != std::string::npos)
      os << "  constexpr bool " << fact << " = (DIV16 >> " << i << ") & 1u;\n";
  }
  for (size_t i = 0; i < k_.layouts.size(); ++i) {
    const Layout& l = k_.layouts[i];
    std::string name = layoutName(int(i));
    if (l.kind == Layout::Kind::Slice) {
      std::string parent = layoutName(l.parent);
      os << "  // " << name << ": the " << (l.dim == 1 ? "rows" : "columns") << " of " << parent
         << " tiles (dimension " << l.dim << " reduced or broadcast)\n";
      os << "  using " << name << " = tilec::Slice<" << parent << ", " << l.dim << ">;\n";
      continue;
    }
    std::string vec =
        l.maxVec.isConst() ? l.maxVec.str() : "tilec::vector_width(" + l.maxVec.str() + ")";
    if (l.shape.size() == 2) {
      os << "  // " << name << ": a [" << l.shape[0].str() << ", " << l.shape[1].str()
         << "] tile over THREADS threads, row-major, runs of up to " << l.maxVec.str()
         << " consecutive elements of a row per thread\n";
      os << "  using " << name << " = tilec::Blocked2D<" << l.shape[0].str() << ", "
         << l.shape[1].str() << ", THREADS, " << vec << ">;\n";
      continue;
    }
    os << "  // " << name << ": a [" << l.shape[0].str()
       << "] tile over THREADS threads, runs of up to " << l.maxVec.str()
       << " consecutive elements per thread\n";
    os << "  using " << name << " = tilec::Blocked1D<" << l.shape[0].str() << ", THREADS, " << vec
       << ">;\n";
  }
  if (body.find("tid") != std::string::npos)
    os << "  const int tid = threadIdx.x;\n";
  if (!smemSizes_.empty()) {
    std::string bytes = smemSizes_.back();
    for (size_t i = smemSizes_.size() - 1; i-- > 0;)
      bytes = "tilec::cmax(" + smemSizes_[i] + ", " + bytes + ")";
    os << "  // Shared memory for reductions, scans, scalar atomics and layout conversions: each\n"
       << "  // use ends with a barrier, so they share one buffer, sized for the largest.\n"
       << "  __shared__ alignas(16) unsigned char smem[" << bytes << "];\n";
  }
  os << "\n";
  os << body << "}\n";
  return os.str();
}

} // namespace

std::string emitCuda(const std::vector<const Kernel*>& kernels, const EmitOptions& opts) {
  std::ostringstream os;
  os << "// " << opts.stem << ".cu: CUDA for the kernels of " << opts.inputName
     << ", generated by tilec.\n"
     << "// Edit " << opts.inputName << " and translate again rather than editing this file.\n"
     << "#include <tilec/device.cuh>\n";
  for (const Kernel* k : kernels)
    os << "\n" << KernelEmitter(*k, opts).run();
  return os.str();
}

} // namespace tilec
