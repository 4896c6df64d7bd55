// tl::device_print and tl::device_assert: every thread prints or checks the elements it owns
// (threads holding copies stay quiet), through templates/tilec/device/common/debug.cuh.
//
//   tl::device_print("v", v)   if (L0::owner(tid)) for (i ...)
//                                tilec::device_print("v", L0::row(tid, i), L0::col(tid, i), v[i]);
#include "codegen/KernelEmitter.h"
#include "ir/PrintedForm.h"

#include <cstdio>

namespace tilec {
namespace emit {

void KernelEmitter::emitDebug(const Op &op) {
  comment(op);
  if (op.kind == OpKind::StaticAssert) {
    *out_ << "  static_assert(" << op.attrs[0].str() << ", " << quoted(op.opcode) << ");\n";
    return;
  }
  bool print = op.kind == OpKind::Print;
  std::string where =
      quoted(o_.inputName) + ", " + std::to_string(op.line) + ", " + quoted(k_.name);
  for (size_t k = 0; k < op.operands.size(); ++k) {
    const Value *v = op.operands[k];
    std::string prefix = op.opcode;
    if (op.operands.size() > 1)
      prefix += " (operand " + std::to_string(k) + ")";
    if (v->type.isScalar()) {
      if (print)
        *out_ << "  if (tid == 0) tilec::device_print(" << quoted(prefix) << ", " << elem(v, "0")
              << ");\n";
      else
        *out_ << "  if (tid == 0 && !(" << elem(v, "0") << ")) tilec::device_assert_fail("
              << quoted(op.opcode) << ", " << where << ", 0);\n";
      continue;
    }
    std::string L = layoutOf(v);
    const Layout &l = k_.layouts[size_t(v->layout)];
    bool rank2Layout =
        l.kind == Layout::Kind::Mma || (l.kind == Layout::Kind::Blocked && l.shape.size() == 2) ||
        __builtin_popcount(unsigned(rank3Axes(k_, v->layout))) == 2; // a slice of a Blocked3D
    std::string at; // the element's index in the tile, as device_print takes it
    if (v->type.shape.size() == 1)
      at = L + "::coord(tid, i)";
    else if (v->type.shape.size() == 3) // a Blocked3D tile
      at = L + "::axis_coord(tid, i, 0), " + L + "::axis_coord(tid, i, 1), " + L +
           "::axis_coord(tid, i, 2)";
    else if (rank2Layout)
      at = L + "::row(tid, i), " + L + "::col(tid, i)";
    else // a [1, N] or [M, 1] tile held like a rank-1 tile
      at = v->type.shape[0].isConst(1) ? "0, " + L + "::coord(tid, i)" : L + "::coord(tid, i), 0";
    *out_ << "  if (" << L << "::owner(tid))\n";
    *out_ << "#pragma unroll\n";
    *out_ << "    for (int i = 0; i < " << L << "::ELEMS; ++i)\n";
    if (print)
      *out_ << "      tilec::device_print(" << quoted(prefix) << ", " << at << ", " << elem(v, "i")
            << ");\n";
    else
      *out_ << "      if (!(" << elem(v, "i") << ")) tilec::device_assert_fail("
            << quoted(op.opcode) << ", " << where << ", tilec::linear_index<" << L
            << ">(tid, i));\n";
  }
}

} // namespace emit
} // namespace tilec
