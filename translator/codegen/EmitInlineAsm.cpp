// tl::inline_asm_elementwise: one inline PTX statement per element of the result.
//
//   float y[L0::ELEMS];
// #pragma unroll
//   for (int i = 0; i < L0::ELEMS; ++i)
//     asm("tanh.approx.f32 %0, %1;" : "=f"(y[i]) : "f"(x[i]));
//
// A value whose type is not its register's own (a half in "h", a float in "r") moves its
// bits through tilec::bitcast.
#include "codegen/KernelEmitter.h"
#include "ir/PrintedForm.h"

namespace tilec {
namespace emit {

namespace {

/// CUDA's spelling of Triton's asm: operands $N are %N, $$ is a dollar sign, and a literal %
/// (PTX's %tid.x) is %%.
std::string cudaAsm(const std::string &text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%')
      out += "%%";
    else if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '$')
      out += text[++i];
    else if (text[i] == '$')
      out += '%';
    else
      out += text[i];
  }
  return out;
}

/// The C++ type a register constraint letter binds.
std::string registerType(char letter) {
  switch (letter) {
  case 'h':
    return "unsigned short";
  case 'r':
    return "unsigned";
  case 'l':
    return "unsigned long long";
  case 'f':
    return "float";
  default:
    return "double";
  }
}

/// Whether a value of type `t` binds to register `letter` as it is.
bool bindsAsIs(const ElemType &t, char letter) {
  switch (letter) {
  case 'h':
    return t.is(ScalarKind::I16) || t.is(ScalarKind::U16);
  case 'r':
    return t.is(ScalarKind::I32) || t.is(ScalarKind::U32);
  case 'l':
    return t.is(ScalarKind::I64) || t.is(ScalarKind::U64);
  case 'f':
    return t.is(ScalarKind::F32);
  default:
    return t.is(ScalarKind::F64);
  }
}

} // namespace

void KernelEmitter::emitInlineAsm(const Op &op) {
  comment(op);
  const Value *r = op.result;
  std::vector<char> letters; // the result's register, then the operands'
  for (char ch : op.asmConstraints)
    if (ch != '=' && ch != ',')
      letters.push_back(ch);
  const bool tile = r->type.isTile();
  const std::string name = nameOf(r), T = r->type.cudaElem(), i = tile ? "i" : "0";
  const bool direct = bindsAsIs(r->type.elem, letters[0]);
  auto statement = [&](const std::string &out) {
    std::string s = std::string(op.asmImpure ? "asm volatile(" : "asm(") +
                    quoted(cudaAsm(op.opcode)) + " : \"=" + letters[0] + "\"(" + out + ")";
    for (size_t k = 0; k < op.operands.size(); ++k) {
      const Value *v = op.operands[k];
      std::string value = elem(v, i);
      if (!bindsAsIs(v->type.elem, letters[k + 1]))
        value = "tilec::bitcast<" + registerType(letters[k + 1]) + ">(" + value + ")";
      s += std::string(k ? ", " : " : ") + "\"" + letters[k + 1] + "\"(" + value + ")";
    }
    return s + ");";
  };
  // The statements writing element `at` of the result (after `head`: "" or a loop's head),
  // through a register of its own when the result's type is not the register's.
  auto element = [&](const std::string &head, const std::string &at) {
    if (direct)
      return head + (head.empty() ? "  " : "\n    ") + statement(at) + "\n";
    std::string reg = names_.fresh(name + "_reg"), in = "    ";
    return (head.empty() ? std::string("  {") : head + " {") + "\n" + in +
           registerType(letters[0]) + " " + reg + ";\n" + in + statement(reg) + "\n" + in + at +
           " = tilec::bitcast<" + T + ">(" + reg + ");\n  }\n";
  };
  if (!tile) {
    *out_ << "  " << T << " " << name << ";\n" << element("", name);
    return;
  }
  std::string L = layoutOf(r);
  *out_ << "  " << T << " " << name << "[" << L << "::ELEMS];\n";
  *out_ << "#pragma unroll\n";
  *out_ << element("  for (int i = 0; i < " + L + "::ELEMS; ++i)", name + "[i]");
}

} // namespace emit
} // namespace tilec
