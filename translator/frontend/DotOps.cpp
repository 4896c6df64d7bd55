// tl::dot -> tile IR: a matrix product on tensor cores.
//
//   tl::dot(a, b)                        %9 = dot "tf32" %5:a, %7:b, %8 : tile<float, BM, BN>
//   tl::dot(a, b, acc)                   %9 = dot "tf32" %5:a, %7:b, %3:acc
//   tl::dot(a, b, acc, tl::precision::ieee)   float operands multiplied exactly
//   tl::dot<tl::half>(a, b, acc)         %c = cast %acc : tile<float, BM, BN>
//                                        %d = dot "tf32" %5:a, %7:b, %c
//                                        %e = cast %d : tile<tl::half, BM, BN>
//
// The template argument is Triton's out_dtype: the accumulation type, or tl::half for half
// and fp8 operands, which sums in float and rounds the result to half once per call (acc,
// then a half tile, widens to float first).
//
// The accumulator type: float for half, bfloat16, fp8 and float operands, int32 for 8-bit
// integers; an operand type that is a template parameter is taken to be a floating type
// (pass an int32 accumulator for integer operands). fp8 runs on sm_89 and newer: the device
// library rejects it for older GPUs when the CUDA is compiled.
#include "frontend/Lowerer.h"

namespace tilec {

using namespace clang;

namespace {
/// The accumulator type of a product of `in` operands; nullopt when tl::dot has none.
std::optional<ElemType> accumulatorType(const ElemType &in) {
  if (!in.isKnown())
    return ElemType::known(ScalarKind::F32);
  switch (in.kind) {
  case ScalarKind::F16:
  case ScalarKind::BF16:
  case ScalarKind::F32:
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    return ElemType::known(ScalarKind::F32);
  case ScalarKind::I8:
  case ScalarKind::U8:
    return ElemType::known(ScalarKind::I32);
  default:
    return std::nullopt;
  }
}

/// "ieee" or "tf32" from `tl::precision::ieee` and the like; empty when it is not one.
/// Why tl::dot<out> is refused for operands `in` (accumulated in `acc`), or "" when it is not.
std::string outTypeProblem(const ElemType &out, const ElemType &in, const ElemType &acc) {
  if (out == acc)
    return "";
  std::string spelled = "tl::dot<" + out.cuda() + ">";
  if (out.is(ScalarKind::BF16))
    return spelled + ": Triton has no bfloat16 out_dtype; write "
                     "tl::cast<tl::bfloat16>(tl::dot(a, b))";
  if (out.is(ScalarKind::F16)) {
    if ((in.isKnown() && (in.is(ScalarKind::F16) || in.isFp8())) ||
        in.form == ElemType::Form::Param)
      return ""; // a template type is checked per specialization (lowerDot)
    return spelled + " needs half or fp8 operands, not " +
           (in.isKnown() ? in.cuda() : "a template element type (" + in.cuda() + ")") +
           " (Triton computes float and bfloat16 products in float whatever out_dtype says); "
           "write tl::cast<tl::half>(tl::dot(a, b))";
  }
  return spelled + ": the result type (Triton's out_dtype) of a product of " + in.cuda() +
         " tiles is " + acc.cuda() +
         (in.is(ScalarKind::F16) || in.isFp8() ? " or tl::half" : "") +
         "; cast the result for another type";
}

std::string precisionName(const Expr *e) {
  if (const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts())) {
    std::string n = ref->getDecl()->getNameAsString();
    if (n == "ieee" || n == "tf32")
      return n;
  }
  return "";
}
} // namespace

Value *Lowerer::lowerDot(const CallExpr *call, const Callee &c) {
  if (!wantArgs(call, c, 2, 4))
    return nullptr;
  unsigned nargs = givenArgs(call);
  Value *a = lowerExpr(call->getArg(0));
  Value *b = a ? lowerExpr(call->getArg(1)) : nullptr;
  if (!a || !b)
    return nullptr;
  for (auto [v, e] : {std::pair{a, call->getArg(0)}, std::pair{b, call->getArg(1)}})
    if (v->type.shape.size() != 2 || v->type.pointer) {
      error(e, "tl::dot multiplies rank-2 tiles of numbers; this is " + v->type.str());
      return nullptr;
    }
  if (!(a->type.elem == b->type.elem)) {
    error(call, "tl::dot operands must have the same element type (" + a->type.elem.cuda() +
                    " and " + b->type.elem.cuda() + "); cast one with tl::cast");
    return nullptr;
  }
  if (!a->type.shape[1].sameAs(b->type.shape[0])) {
    error(call, "tl::dot shapes do not match: " + a->type.shapeStr() + " x " + b->type.shapeStr() +
                    " (the columns of a must equal the rows of b)");
    return nullptr;
  }
  auto accType = accumulatorType(a->type.elem);
  if (!accType) {
    error(call, "tl::dot is not available for " + a->type.elem.cuda() +
                    " operands (half, bfloat16, float8_e4m3, float8_e5m2, float, int8_t or "
                    "uint8_t)");
    return nullptr;
  }
  // The tensor-core instructions' own tile: known sizes are checked here, sizes from template
  // parameters by the device library per specialization.
  const SymExpr &m = a->type.shape[0], &n = b->type.shape[1], &kk = a->type.shape[1];
  int bits = a->type.elem.bits(); // 0: a template type, known per specialization only
  int kStep = bits == 8 ? 32 : bits == 16 ? 16 : 8;
  if ((m.isConst() && m.value() % 16 != 0) || (n.isConst() && n.value() % 8 != 0) ||
      (bits && kk.isConst() && kk.value() % kStep != 0)) {
    error(call, "tl::dot of " + a->type.shapeStr() + " x " + b->type.shapeStr() + " " +
                    a->type.elem.cuda() + " tiles: the tensor cores need M a multiple of 16, " +
                    "N a multiple of 8 and K a multiple of " + std::to_string(kStep) +
                    " for this type; use larger tiles (mask what lies outside the data)");
    return nullptr;
  }
  // Triton's out_dtype: the result's type, when it is not the accumulation type.
  std::optional<ElemType> out;
  if (c.templateArgs.size() > 1) {
    error(call, "tl::dot takes one template argument, the result type (Triton's out_dtype)");
    return nullptr;
  }
  if (c.templateArgs.size() == 1) {
    out = templateArgType(c.templateArgs[0]);
    if (!out)
      return nullptr;
    if (std::string why = outTypeProblem(*out, a->type.elem, *accType); !why.empty()) {
      error(call, why);
      return nullptr;
    }
    if (*out == *accType)
      out.reset();
    if (out && a->type.elem.form == ElemType::Form::Param) {
      // Where the kernel is compiled: 16- and 8-bit floats (bfloat16 is not told apart).
      Op *check = emit(OpKind::StaticAssert, {}, Type{}, call, /*hasResult=*/false);
      check->opcode = "tl::dot<tl::half> needs half or fp8 operands";
      check->attrs.push_back(SymExpr::expr("sizeof(" + a->type.elem.cuda() + ") <= 2", true));
    }
  }
  std::vector<SymExpr> shape = {a->type.shape[0], b->type.shape[1]};
  Type rt{*accType, false, false, shape};
  Value *acc = nullptr;
  if (nargs >= 3) {
    acc = lowerExpr(call->getArg(2));
    if (!acc)
      return nullptr;
    if (!sameShape(acc->type.shape, shape)) {
      error(call->getArg(2), "the accumulator of tl::dot must be " + rt.shapeStr() + ", not " +
                                 acc->type.shapeStr());
      return nullptr;
    }
    const ElemType &want = out ? *out : *accType;
    if ((out || a->type.elem.isKnown()) && !(acc->type.elem == want)) {
      error(call->getArg(2), "the accumulator of tl::dot" + (out ? "<" + out->cuda() + ">" : "") +
                                 " on " + a->type.elem.cuda() + " must hold " + want.cuda() +
                                 ", not " + acc->type.elem.cuda());
      return nullptr;
    }
    if (out) {
      acc = castTo(acc, *accType, call->getArg(2)); // the sum runs in float
      if (!acc)
        return nullptr;
    } else
      rt.elem = acc->type.elem;
  } else {
    Value *zero = constant(SymExpr(0), rt.elem, call);
    acc = emit(OpKind::Splat, {zero}, rt, call)->result;
  }
  std::string precision = "tf32";
  if (nargs == 4) {
    precision = precisionName(call->getArg(3));
    if (precision.empty()) {
      error(call->getArg(3), "the precision of tl::dot is tl::precision::tf32 or "
                             "tl::precision::ieee");
      return nullptr;
    }
  }
  Op *op = emit(OpKind::Dot, {a, b, acc}, rt, call);
  op->opcode = precision;
  return out ? castTo(op->result, *out, call) : op->result;
}

} // namespace tilec
