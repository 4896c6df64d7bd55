#include "transforms/FuseArgReductions.h"

#include "ir/Rewriter.h"

namespace tilec {

namespace {

/// "argmax" for "max", "argmin" for "min", else empty.
std::string argOpcodeFor(const std::string &opcode) {
  if (opcode == "max" || opcode == "min")
    return "arg" + opcode;
  return "";
}

/// A reduction along one dimension of a blocked rank-2 tile: what arg_reduce_axis can return
/// the values of. (A max of 16-bit floats or narrow integers is promoted; the winner's value
/// converts exactly.)
bool fusableShape(const Kernel &k, const Op &op) {
  const Value *in = op.operands[0];
  if (op.operands.size() != 1 || !op.result || !op.result->type.isTile() ||
      in->type.shape.size() != 2 || in->layout < 0)
    return false;
  return k.layouts[size_t(in->layout)].kind == Layout::Kind::Blocked;
}

/// The tile a max (min) reduces, seen through the widening tl::max applies first (a half or
/// bfloat16 tile to float, a narrow integer tile to int32): the order of the values, and so
/// which one wins, is the same before and after it.
Value *orderedSource(Value *v) {
  const Op *c = v->def;
  if (!c || c->kind != OpKind::Cast || !v->type.elem.isKnown())
    return v;
  const ElemType &from = c->operands[0]->type.elem, &to = v->type.elem;
  bool floatWidening = from.isFloat() && !from.isFp8() && to.isFloat() && from.bits() < to.bits();
  bool intWidening = from.isInteger() && to.isInteger() && from.bits() < to.bits() &&
                     (from.isSigned() == to.isSigned() || !from.isSigned());
  return floatWidening || intWidening ? c->operands[0] : v;
}

void fuseInRegion(Kernel &k, Region &r) {
  // By index: moving the argmax before the max shifts the ops between them by one.
  for (size_t i = 0; i < r.ops.size(); ++i) {
    Op *red = r.ops[i].get();
    std::string argOpcode = argOpcodeFor(red->opcode);
    if (red->kind != OpKind::Reduce || argOpcode.empty() || !fusableShape(k, *red))
      continue;
    Value *source = orderedSource(red->operands[0]);
    for (size_t j = 0; j < r.ops.size(); ++j) {
      Op *arg = r.ops[j].get();
      if (arg->kind != OpKind::Reduce || arg->opcode != argOpcode || !fusableShape(k, *arg) ||
          arg->operands[0] != source || !arg->attrs[0].sameAs(red->attrs[0]) ||
          arg->result->layout != red->result->layout)
        continue;
      // The max reads the tile itself; the emitter converts the winners' values.
      if (Value *widened = red->operands[0]; widened != source) {
        setOperand(red, 0, source);
        eraseIfDead(k, widened);
      }
      // The argmax reads only the tile, defined before both: it may run where the max was.
      if (j > i) {
        moveBefore(k, arg, red);
        ++i; // the max moved one place on
      }
      addOperand(red, arg->result);
      break;
    }
  }
  for (auto &op : r.ops)
    for (auto &sub : op->regions)
      fuseInRegion(k, *sub);
}

} // namespace

const Value *fusedArgReduction(const Op &op) {
  if (op.kind == OpKind::Reduce && op.operands.size() == 2 && !argOpcodeFor(op.opcode).empty())
    return op.operands[1];
  return nullptr;
}

void runFuseArgReductions(Kernel &k) { fuseInRegion(k, k.body); }

} // namespace tilec
