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
  std::ostringstream body_;
  std::set<int> arrays_; // values materialized into variables, by id

  void decideMaterialization();
  bool materialized(const Value* v) const { return arrays_.count(v->id) > 0; }
  std::string layoutOf(const Value* v) const { return layoutName(v->layout); }
  std::string elem(const Value* v, const std::string& i);
  std::string compute(const Op& op, const std::string& i);
  void comment(const Op& op);
  void emitOp(const Op& op);
  void emitLoad(const Op& op);
  void emitStore(const Op& op);
  std::string arrayArg(const Value* v, const std::string& i) {
    return v->type.isTile() ? "&" + names_.of(v) + "[" + i + "]" : elem(v, i);
  }
};

void KernelEmitter::decideMaterialization() {
  for (auto& op : k_.ops) {
    Value* r = op->result;
    if (r && op->kind != OpKind::Param && op->kind != OpKind::Constant) {
      bool named = !r->name.empty();
      bool needsStatement = op->kind == OpKind::Load || op->kind == OpKind::ProgramId ||
                            op->kind == OpKind::NumPrograms;
      if (named || r->uses > 1 || needsStatement)
        arrays_.insert(r->id);
    }
    // Loads and stores take their masks, `other` tiles and stored values as arrays.
    if (op->kind == OpKind::Load || op->kind == OpKind::Store)
      for (size_t j = 1; j < op->operands.size(); ++j)
        if (op->operands[j]->type.isTile() && op->operands[j]->def &&
            op->operands[j]->def->kind != OpKind::Param)
          arrays_.insert(op->operands[j]->id);
  }
}

std::string KernelEmitter::elem(const Value* v, const std::string& i) {
  if (v->def && v->def->kind == OpKind::Param)
    return names_.of(v);
  if (materialized(v))
    return v->type.isTile() ? names_.of(v) + "[" + i + "]" : names_.of(v);
  return compute(*v->def, i);
}

std::string KernelEmitter::compute(const Op& op, const std::string& i) {
  auto arg = [&](size_t n) { return elem(op.operands[n], i); };
  const Value* r = op.result;
  switch (op.kind) {
  case OpKind::Constant:
    return op.attrs[0].str();
  case OpKind::Arange: {
    std::string c = layoutOf(r) + "::coord(tid, " + i + ")";
    return op.attrs[0].isConst(0) ? c : "(" + op.attrs[0].str() + " + " + c + ")";
  }
  case OpKind::Splat:
    return arg(0);
  case OpKind::Broadcast:
    return elem(op.operands[0], "0");
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
    body_ << "#line " << op.line << " \"" << o_.inputPath << "\"\n";
  if (!op.srcText.empty())
    body_ << "  // " << o_.inputName << ":" << op.line << ": " << oneLine(op.srcText) << "\n";
}

void KernelEmitter::emitLoad(const Op& op) {
  const Value* r = op.result;
  const Value* ptrs = op.operands[0];
  const Value* mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const Value* other = op.operands.size() > 2 ? op.operands[2] : nullptr;
  const std::string& name = names_.of(r);
  comment(op);
  if (r->type.isScalar()) {
    std::string p = elem(ptrs, "0");
    body_ << "  const " << r->type.cudaElem() << " " << name << " = ";
    if (mask)
      body_ << elem(mask, "0") << " ? *" << p << " : "
            << (other ? elem(other, "0") : zeroOf(r->type.elem));
    else
      body_ << "*" << p;
    body_ << ";\n";
    return;
  }
  std::string L = layoutOf(r);
  std::string w = names_.fresh(name + "_width");
  body_ << "  // " << ptrs->info.contiguity.str() << " consecutive addresses, aligned to "
        << ptrs->info.divisibility.str() << " bytes\n";
  body_ << "  constexpr int " << w << " = tilec::vector_width(" << op.accessWidth.str() << ");\n";
  std::string templateArgs = w;
  if (mask && mask->type.isTile()) {
    std::string u = names_.fresh(name + "_mask_uniform");
    body_ << "  constexpr bool " << u << " = " << mask->info.constancy.operand() << " % " << w
          << " == 0;\n";
    templateArgs += ", " + u;
  }
  body_ << "  " << r->type.cudaElem() << " " << name << "[" << L << "::ELEMS];\n";
  body_ << "#pragma unroll\n";
  body_ << "  for (int i = 0; i < " << L << "::ELEMS; i += " << w << ")\n";
  body_ << "    tilec::load_vec<" << templateArgs << ">(&" << name << "[i], " << elem(ptrs, "i");
  if (mask)
    body_ << ", " << arrayArg(mask, "i") << ", "
          << (other ? arrayArg(other, "i") : zeroOf(r->type.elem));
  body_ << ");\n";
}

void KernelEmitter::emitStore(const Op& op) {
  const Value* ptrs = op.operands[0];
  const Value* val = op.operands[1];
  const Value* mask = op.operands.size() > 2 ? op.operands[2] : nullptr;
  comment(op);
  if (ptrs->type.isScalar()) {
    // One thread stores a scalar for the whole program instance.
    body_ << "  if (tid == 0" << (mask ? " && " + elem(mask, "0") : "") << ") *"
          << elem(ptrs, "0") << " = " << elem(val, "0") << ";\n";
    return;
  }
  std::string L = layoutOf(ptrs);
  std::string w = names_.fresh("store_width");
  body_ << "  // " << ptrs->info.contiguity.str() << " consecutive addresses, aligned to "
        << ptrs->info.divisibility.str() << " bytes\n";
  body_ << "  constexpr int " << w << " = tilec::vector_width(" << op.accessWidth.str() << ");\n";
  std::string templateArgs = w;
  if (mask && mask->type.isTile()) {
    std::string u = names_.fresh("store_mask_uniform");
    body_ << "  constexpr bool " << u << " = " << mask->info.constancy.operand() << " % " << w
          << " == 0;\n";
    templateArgs += ", " + u;
  }
  body_ << "#pragma unroll\n";
  body_ << "  for (int i = 0; i < " << L << "::ELEMS; i += " << w << ")\n";
  body_ << "    tilec::store_vec<" << templateArgs << ">(" << elem(ptrs, "i") << ", "
        << arrayArg(val, "i");
  if (mask)
    body_ << ", " << arrayArg(mask, "i");
  body_ << ", " << L << "::owner(tid));\n";
}

void KernelEmitter::emitOp(const Op& op) {
  if (op.kind == OpKind::Load)
    return emitLoad(op);
  if (op.kind == OpKind::Store)
    return emitStore(op);
  const Value* r = op.result;
  if (!r || !materialized(r) || op.kind == OpKind::Param)
    return;
  comment(op);
  const std::string& name = names_.of(r);
  if (r->type.isScalar()) {
    body_ << "  const " << r->type.cudaElem() << " " << name << " = " << compute(op, "0") << ";\n";
    return;
  }
  std::string L = layoutOf(r);
  body_ << "  " << r->type.cudaElem() << " " << name << "[" << L << "::ELEMS];\n";
  body_ << "#pragma unroll\n";
  body_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << name << "[i] = " << compute(op, "i")
        << ";\n";
}

std::string KernelEmitter::run() {
  for (const char* n : {"tid", "i", "THREADS", "NUM_WARPS", "NUM_STAGES", "DIV16"})
    names_.reserve(n);
  for (auto& tp : k_.templateParams)
    names_.reserve(tp.name);
  for (size_t i = 0; i < k_.layouts.size(); ++i)
    names_.reserve(layoutName(int(i)));
  for (auto& p : k_.params)
    names_.reserve(div16FactName(p));
  // Parameters keep their source names.
  for (auto& op : k_.ops)
    if (op->kind == OpKind::Param)
      names_.of(op->result);

  decideMaterialization();
  for (auto& op : k_.ops)
    emitOp(*op);
  std::string body = body_.str();

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
    os << (i ? ", " : "") << k_.params[i].type.cudaElem() << " " << k_.params[i].name;
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
    os << "  // " << layoutName(int(i)) << ": a [" << l.shape[0].str()
       << "] tile over THREADS threads, runs of up to " << l.maxVec.str()
       << " consecutive elements per thread\n";
    os << "  using " << layoutName(int(i)) << " = tilec::Blocked1D<" << l.shape[0].str()
       << ", THREADS, "
       << (l.maxVec.isConst() ? l.maxVec.str() : "tilec::vector_width(" + l.maxVec.str() + ")")
       << ">;\n";
  }
  if (body.find("tid") != std::string::npos)
    os << "  const int tid = threadIdx.x;\n";
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
