// Loads, stores and atomics: global memory accesses of tiles and scalars.
#include "codegen/KernelEmitter.h"

namespace tilec {
namespace emit {

/// Declares a tile access's vector width `w` (and, with a tile mask, whether the mask is the
/// same over each vector) after a comment on what the analysis proved; returns the template
/// arguments of the access: "w" or "w, mask_uniform". The pointers are operand 0 (1 of an
/// async copy), the mask operand 1 of a load, 2 of a store or an async copy.
std::string KernelEmitter::accessWidth(const Op &op, const std::string &w,
                                       const std::string &uniformName, const std::string &what) {
  const Value *ptrs =
      op.operands[op.kind == OpKind::AsyncCopy || op.kind == OpKind::TmaCopy ? 1 : 0];
  size_t maskAt = op.kind == OpKind::Load ? 1 : 2;
  const Value *mask = op.operands.size() > maskAt ? op.operands[maskAt] : nullptr;
  *out_ << "  // " << what << ptrs->info.contiguity.str() << " consecutive addresses, aligned to "
        << ptrs->info.divisibility.str() << " bytes\n";
  *out_ << "  constexpr int " << w << " = tilec::vector_width(" << op.accessWidth.str() << ");\n";
  if (!mask || !mask->type.isTile())
    return w;
  std::string u = names_.fresh(uniformName);
  *out_ << "  constexpr bool " << u << " = " << mask->info.constancy.operand() << " % " << w
        << " == 0;\n";
  return w + ", " + u;
}

/// A load's or store's cache hints as the device library's template arguments, each after
/// ", ": none, the eviction policy, or the policy and the Cache (cache modifier, volatile).
static std::string cachePolicyArgs(const Op &op) {
  std::string evict = op.opcode == "evict_first" ? "tilec::Evict::first"
                      : op.opcode == "evict_last" ? "tilec::Evict::last"
                                                  : "tilec::Evict::normal";
  std::string cache = op.isVolatile ? "volatile_" : op.cache;
  if (cache.empty())
    return op.opcode.empty() ? "" : ", " + evict;
  return ", " + evict + ", tilec::Cache::" + cache;
}

void KernelEmitter::emitLoad(const Op &op) {
  const Value *r = op.result;
  const Value *ptrs = op.operands[0];
  const Value *mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const Value *other = op.operands.size() > 2 ? op.operands[2] : nullptr;
  const std::string &name = nameOf(r);
  comment(op);
  if (r->type.isScalar()) {
    std::string p = elem(ptrs, "0");
    std::string policy = cachePolicyArgs(op);
    std::string read =
        policy.empty() ? "*" + p : "tilec::load_one<" + policy.substr(2) + ">(" + p + ")";
    *out_ << "  " << r->type.cudaConstScalar() << " " << name << " = ";
    if (mask)
      *out_ << elem(mask, "0") << " ? " << read << " : "
            << (other ? elem(other, "0") : zeroOf(r->type.elem));
    else
      *out_ << read;
    *out_ << ";\n";
    return;
  }
  std::string L = layoutOf(r);
  std::string w = names_.fresh(name + "_width");
  std::string templateArgs = accessWidth(op, w, name + "_mask_uniform", "") + cachePolicyArgs(op);
  *out_ << "  " << r->type.cudaElem() << " " << name << "[" << L << "::ELEMS];\n";
  *out_ << "#pragma unroll\n";
  *out_ << "  for (int i = 0; i < " << L << "::ELEMS; i += " << w << ")\n";
  *out_ << "    tilec::load_vec<" << templateArgs << ">(&" << name << "[i], " << elem(ptrs, "i");
  if (mask)
    *out_ << ", " << arrayArg(mask, "i") << ", "
          << (other ? arrayArg(other, "i") : zeroOf(r->type.elem));
  *out_ << ");\n";
}

void KernelEmitter::emitPrefetchL2(const Op &op) {
  comment(op);
  const std::string count = op.operands.size() > 1 ? elem(op.operands[1], "0") : op.attrs[0].str();
  *out_ << "  tilec::prefetch_row_l2<" << op.attrs[0].str() << ", " << op.attrs[1].operand()
        << " / THREADS>(tid, " << elem(op.operands[0], "0") << ", " << count
        << "); // into L2 ahead of the load\n";
}

void KernelEmitter::emitStore(const Op &op) {
  const Value *ptrs = op.operands[0];
  const Value *val = op.operands[1];
  const Value *mask = op.operands.size() > 2 ? op.operands[2] : nullptr;
  comment(op);
  if (ptrs->type.isScalar()) {
    // One thread stores a scalar for the whole program instance.
    std::string policy = cachePolicyArgs(op);
    *out_ << "  if (tid == 0" << (mask ? " && " + elem(mask, "0") : "") << ") ";
    if (policy.empty())
      *out_ << "*" << elem(ptrs, "0") << " = " << elem(val, "0") << ";\n";
    else
      *out_ << "tilec::store_one<" << policy.substr(2) << ">(" << elem(ptrs, "0") << ", "
            << elem(val, "0") << ");\n";
    return;
  }
  std::string L = layoutOf(ptrs);
  std::string w = names_.fresh("store_width");
  std::string templateArgs = accessWidth(op, w, "store_mask_uniform", "") + cachePolicyArgs(op);
  std::string indent = "  ";
  if (op.quadRuns) {
    // A tl::dot result: 16-byte runs from the quads' transposed pairs where this
    // specialization allows them, else the thread's own pairs.
    std::string runs = names_.fresh("quad_runs");
    std::string maskConst = mask && mask->type.isTile() ? mask->info.constancy.operand() : "8";
    *out_ << "  constexpr bool " << runs << " = tilec::quad_runs_ok<" << L << ", "
          << val->type.cudaElem() << ">(" << ptrs->info.contiguity.operand() << ", "
          << ptrs->info.divisibility.operand() << ", " << maskConst << ");\n";
    std::string policy = cachePolicyArgs(op);
    *out_ << "  if constexpr (" << runs << ") {\n"
          << "    tilec::store_quad_runs<" << L << policy << ">(" << arrayArg(val, "0")
          << ", [&](int i) { return " << elem(ptrs, "i") << "; }, [&](int i) { return "
          << (mask ? elem(mask, "i") : "true") << "; }, tid);\n"
          << "  } else {\n";
    indent = "    ";
  }
  *out_ << "#pragma unroll\n";
  *out_ << indent << "for (int i = 0; i < " << L << "::ELEMS; i += " << w << ")\n";
  *out_ << indent << "  tilec::store_vec<" << templateArgs << ">(" << elem(ptrs, "i") << ", "
        << arrayArg(val, "i");
  if (mask)
    *out_ << ", " << arrayArg(mask, "i");
  *out_ << ", " << L << "::owner(tid));\n";
  if (op.quadRuns)
    *out_ << "  }\n";
}

void KernelEmitter::emitAtomic(const Op &op) {
  comment(op);
  const Value *r = op.result;
  bool cas = op.opcode == "cas";
  const Value *ptrs = op.operands[0];
  const Value *mask = (!cas && op.operands.size() > 2) ? op.operands[2] : nullptr;
  std::string T = r->type.cudaElem(), name = nameOf(r);
  // An ordering other than Triton's default (acq_rel, gpu) is spelled as template arguments.
  std::string orderingArgs, ordering;
  if (op.attrs.size() == 2) {
    orderingArgs = std::string("tilec::MemSem::") + kAtomicSems[op.attrs[0].value()] +
                   ", tilec::MemScope::" + kAtomicScopes[op.attrs[1].value()];
    ordering = "<" + orderingArgs + ">";
  }
  auto call = [&](const std::string &i) {
    std::string c = "tilec::atomic_" + op.opcode + ordering + "(" + elem(ptrs, i) + ", " +
                    elem(op.operands[1], i);
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
  if (!op.accessWidth.isConst(1)) {
    // Runs of consecutive addresses, one vector atom each where the target has them (sm_90).
    std::string w = names_.fresh(name + "_width");
    std::string templateArgs = accessWidth(op, w, name + "_mask_uniform", "");
    if (!orderingArgs.empty())
      templateArgs += ", " + orderingArgs;
    *out_ << "#pragma unroll\n";
    *out_ << "  for (int i = 0; i < " << L << "::ELEMS; i += " << w << ")\n";
    *out_ << "    tilec::atomic_add_vec<" << templateArgs << ">(&" << name << "[i], "
          << elem(ptrs, "i") << ", " << arrayArg(op.operands[1], "i");
    if (mask)
      *out_ << ", " << arrayArg(mask, "i");
    *out_ << ", " << L << "::owner(tid));\n";
    return;
  }
  *out_ << "#pragma unroll\n";
  *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i)\n";
  *out_ << "    " << name << "[i] = (" << L << "::owner(tid)"
        << (mask ? " && " + elem(mask, "i") : "") << ") ? " << call("i") << " : " << T << "(0);\n";
}

} // namespace emit
} // namespace tilec
