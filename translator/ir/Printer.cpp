// Textual form of the tile IR, one op per line:
//   %3:offs = binary "+" %1, %2 : tile<int, BLOCK>  {contig=BLOCK div=... const=1}
#include "ir/IR.h"

#include <sstream>

namespace tilec {

static std::string ref(const Value* v) {
  return "%" + std::to_string(v->id) + (v->name.empty() ? "" : ":" + v->name);
}

static bool hasIntInfo(const Value* v) {
  return v->type.pointer || v->type.elem.isInteger() || v->type.elem.is(ScalarKind::Bool);
}

std::string printKernel(const Kernel& k) {
  std::ostringstream os;
  os << "kernel @" << k.name << "<";
  for (size_t i = 0; i < k.templateParams.size(); ++i)
    os << (i ? ", " : "") << k.templateParams[i].cppType << " " << k.templateParams[i].name;
  os << ">\n";
  for (size_t i = 0; i < k.layouts.size(); ++i)
    os << "  layout #" << i << " blocked" << Type{ElemType(), false, false, k.layouts[i].shape}.shapeStr()
       << " max_vec=" << k.layouts[i].maxVec.str() << "\n";
  for (auto& opPtr : k.ops) {
    const Op& op = *opPtr;
    os << "  ";
    if (op.result)
      os << ref(op.result) << " = ";
    os << opKindName(op.kind);
    if (!op.opcode.empty())
      os << " \"" << op.opcode << "\"";
    if (op.kind == OpKind::ProgramId || op.kind == OpKind::NumPrograms)
      os << " axis=" << op.axis;
    for (size_t i = 0; i < op.operands.size(); ++i)
      os << (i ? ", " : " ") << ref(op.operands[i]);
    for (auto& a : op.attrs)
      os << " [" << a.str() << "]";
    if (op.result)
      os << " : " << op.result->type.str();
    if (op.result && op.result->layout >= 0)
      os << " #" << op.result->layout;
    if (op.result && hasIntInfo(op.result) && op.result->type.isTile())
      os << "  {contig=" << op.result->info.contiguity.str()
         << " div=" << op.result->info.divisibility.str()
         << " const=" << op.result->info.constancy.str() << "}";
    if (op.kind == OpKind::Load || op.kind == OpKind::Store)
      os << "  {width=" << op.accessWidth.str() << " mask_uniform=" << op.maskUniform.str() << "}";
    os << "\n";
  }
  return os.str();
}

std::string verifyKernel(const Kernel& k) {
  for (auto& opPtr : k.ops) {
    const Op& op = *opPtr;
    for (Value* v : op.operands)
      if (!v)
        return std::string("null operand in ") + opKindName(op.kind);
    if (op.kind == OpKind::Store && op.result)
      return "store must not produce a value";
    if (op.kind != OpKind::Store && !op.result)
      return std::string(opKindName(op.kind)) + " has no result";
    if ((op.kind == OpKind::Load || op.kind == OpKind::Store) &&
        !op.operands[0]->type.pointer)
      return std::string(opKindName(op.kind)) + " of a non-pointer";
  }
  return "";
}

} // namespace tilec
