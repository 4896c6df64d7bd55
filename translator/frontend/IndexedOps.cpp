// tl::flip, tl::gather, tl::sort, tl::topk and tl::histogram -> tile IR: elements picked by
// their position along an axis, put in order along it, or counted by their value. Each is one
// op; the emitter moves the elements through shared memory.
//
//   tl::flip(t)                  %5 = flip %4:t [1] : tile<float, M, N>   (the last axis)
//   tl::flip<0>(t)               %5 = flip %4:t [0] : tile<float, M, N>
//   tl::gather<1>(src, idx)      %7 = gather %5:src, %6:idx [1] : tile<float, M, K>
//   tl::sort<1, true>(t)         %5 = sort %4:t [1, 1] : tile<float, M, N>  (axis, descending)
//   tl::topk<8>(t)               %5 = sort %4:t [1, 1] : tile<float, M, 8>  (largest first)
//   tl::histogram<16>(x, x < n)  %9 = histogram %7:x, %8 : tile<int, 16>
#include "frontend/Lowerer.h"

#include <algorithm>
#include <optional>

namespace tilec {

using namespace clang;

namespace {

/// "0 and 1 (or -2 and -1)": the axes of a tile of rank `rank`, as the error messages list them.
std::string axesOf(size_t rank) {
  if (rank == 1)
    return "the axis 0 (or -1)";
  if (rank == 2)
    return "the axes 0 and 1 (or -2 and -1)";
  return "the axes 0, 1 and 2 (or -3, -2 and -1)";
}

/// The smallest power of two at least n (n > 0), for "write tl::histogram<16>".
int64_t powerOfTwoAbove(int64_t n) {
  int64_t p = 1;
  while (p < n && p < (int64_t(1) << 40))
    p *= 2;
  return p;
}

/// The bins live in the 48 KB static shared buffer as int32 counters.
constexpr int64_t kMaxBins = 8192;

} // namespace

bool Lowerer::isIndexedOpName(const std::string &n) {
  return n == "flip" || n == "gather" || n == "histogram" || n == "sort" || n == "topk";
}

/// The axis template argument of tl::flip / tl::gather for a tile of rank `rank`, made
/// non-negative; `dflt` when there is no template argument. Nullopt after an error.
std::optional<int> Lowerer::indexedAxis(const CallExpr *call, const Callee &c, size_t rank,
                                        std::optional<int> dflt) {
  std::string op = "tl::" + c.name;
  if (c.templateArgs.empty()) {
    if (dflt)
      return *dflt;
    error(call, op + " needs the axis as a template argument: " + op + "<AXIS>(src, index)");
    return std::nullopt;
  }
  auto axis = templateArgSym(c.templateArgs[0]);
  if (!axis)
    return std::nullopt;
  std::string spelled = op + "<" + axis->str() + ">";
  if (!axis->isConst()) {
    error(call, spelled + ": the axis must be known when the kernel is translated (a literal "
                          "such as 0 or -1), not a template parameter");
    return std::nullopt;
  }
  int64_t a = axis->value(), r = int64_t(rank);
  if (a < -r || a >= r) {
    error(call, spelled + ": a rank-" + std::to_string(rank) + " tile has " + axesOf(rank));
    return std::nullopt;
  }
  return int(a < 0 ? a + r : a);
}

/// tl::sort<AXIS, DESCENDING>(t) and tl::topk<K, AXIS>(t): one sort op, attrs [axis,
/// descending]; a topk's result is K long along the axis (the first K of a descending sort).
Value *Lowerer::lowerSort(const CallExpr *call, const Callee &c) {
  const bool topk = c.name == "topk";
  const std::string op = "tl::" + c.name;
  if (c.templateArgs.size() > 2) {
    error(call, topk ? "tl::topk takes the count and the axis: tl::topk<K, AXIS>(t)"
                     : "tl::sort takes the axis and whether it sorts descending: "
                       "tl::sort<AXIS, DESCENDING>(t)");
    return nullptr;
  }
  if (topk && c.templateArgs.empty()) {
    error(call, "tl::topk needs the count as a template argument: tl::topk<K>(t)");
    return nullptr;
  }
  if (!wantArgs(call, c, 1, 1))
    return nullptr;
  Value *v = lowerExpr(call->getArg(0));
  if (!v)
    return nullptr;
  const ElemType &e = v->type.elem;
  if (v->type.isScalar() || v->type.pointer || e.isFp8()) {
    error(call->getArg(0), op + " takes a tile of float, double, half, bfloat16, integers or "
                                "bool, not " + v->type.str() +
                                (e.isFp8() ? "; cast it to tl::half first" : ""));
    return nullptr;
  }
  const size_t rank = v->type.shape.size();
  // The axis: sort's first template argument, topk's second; the last axis by default.
  Callee axisCallee = c;
  axisCallee.templateArgs.clear();
  const size_t axisAt = topk ? 1 : 0;
  if (c.templateArgs.size() > axisAt)
    axisCallee.templateArgs.push_back(c.templateArgs[axisAt]);
  auto axis = indexedAxis(call, axisCallee, rank, int(rank) - 1);
  if (!axis)
    return nullptr;
  const SymExpr &n = v->type.shape[size_t(*axis)];
  SymExpr descending(topk ? 1 : 0);
  if (!topk && c.templateArgs.size() > 1) {
    auto d = templateArgSym(c.templateArgs[1]);
    if (!d)
      return nullptr;
    descending = *d;
  }
  Type t = v->type;
  if (topk) {
    auto k = templateArgSym(c.templateArgs[0]);
    if (!k)
      return nullptr;
    std::string spelled = "tl::topk<" + k->str() + ">";
    if (k->isConst() && (k->value() <= 0 || (k->value() & (k->value() - 1)))) {
      error(call, spelled + ": K is the size of the result along the axis, a power of two; "
                            "take a power of two and use the first K");
      return nullptr;
    }
    if (k->isConst() && n.isConst() && k->value() > n.value()) {
      error(call, spelled + ": the axis holds " + n.str() + " elements; K may be at most that");
      return nullptr;
    }
    if (!(k->isConst() && n.isConst())) {
      // Known where the kernel is compiled: checked there, with the same words.
      Op *check = emit(OpKind::StaticAssert, {}, Type{}, call, /*hasResult=*/false);
      check->opcode = spelled + ": K is a power of two no larger than the axis (" + n.str() + ")";
      check->attrs.push_back(SymExpr::expr("(" + k->str() + ") > 0 && ((" + k->str() + ") & ((" +
                                               k->str() + ") - 1)) == 0 && (" + k->str() +
                                               ") <= (" + n.str() + ")",
                                           true));
    }
    t.shape[size_t(*axis)] = *k;
  }
  if (!topk && n.isConst(1))
    return v; // one element along the axis: already in order
  Op *s = emit(OpKind::Sort, {v}, t, call);
  s->attrs = {SymExpr(*axis), descending};
  return s->result;
}

Value *Lowerer::lowerIndexedOp(const CallExpr *call, const Callee &c) {
  const std::string &n = c.name;
  const std::string op = "tl::" + n;
  if (n == "sort" || n == "topk")
    return lowerSort(call, c);
  if (c.templateArgs.size() > 1) {
    error(call, op + " takes one template argument, " +
                    std::string(n == "histogram" ? "the number of bins" : "the axis"));
    return nullptr;
  }

  if (n == "flip") {
    if (!wantArgs(call, c, 1, 1))
      return nullptr;
    Value *v = lowerExpr(call->getArg(0));
    if (!v)
      return nullptr;
    if (v->type.isScalar()) {
      error(call->getArg(0), "tl::flip takes a tile");
      return nullptr;
    }
    // Without an axis Triton flips the last one.
    auto axis = indexedAxis(call, c, v->type.shape.size(), int(v->type.shape.size()) - 1);
    if (!axis)
      return nullptr;
    if (v->type.shape[size_t(*axis)].isConst(1))
      return v; // one element along the axis: nothing moves
    Op *f = emit(OpKind::Flip, {v}, v->type, call);
    f->attrs = {SymExpr(*axis)};
    return f->result;
  }

  if (n == "gather") {
    if (!wantArgs(call, c, 2, 2))
      return nullptr;
    Value *src = lowerExpr(call->getArg(0));
    Value *idx = src ? lowerExpr(call->getArg(1)) : nullptr;
    if (!src || !idx)
      return nullptr;
    if (src->type.isScalar() || idx->type.isScalar()) {
      error(call, "tl::gather takes a source tile and an index tile of the same rank");
      return nullptr;
    }
    const ElemType &ie = idx->type.elem;
    if (idx->type.pointer || (ie.isKnown() && !ie.isInteger() && !ie.is(ScalarKind::Bool))) {
      error(call->getArg(1), "tl::gather: the index must be an integer tile, not " +
                                 idx->type.str() + "; convert it with tl::cast<int>(index)");
      return nullptr;
    }
    const auto &s = src->type.shape, &x = idx->type.shape;
    if (s.size() != x.size()) {
      error(call, "tl::gather: the source " + src->type.shapeStr() + " and the index " +
                      idx->type.shapeStr() + " must have the same rank");
      return nullptr;
    }
    auto axis = indexedAxis(call, c, s.size(), std::nullopt);
    if (!axis)
      return nullptr;
    for (size_t d = 0; d < s.size(); ++d)
      if (int(d) != *axis && !s[d].sameAs(x[d])) {
        error(call, "tl::gather<" + std::to_string(*axis) + ">: the source " +
                        src->type.shapeStr() + " and the index " + idx->type.shapeStr() +
                        " must have the same size on every axis but " + std::to_string(*axis));
        return nullptr;
      }
    Type t{src->type.elem, src->type.pointer, src->type.pointeeConst, x};
    Op *g = emit(OpKind::Gather, {src, idx}, t, call);
    g->attrs = {SymExpr(*axis)};
    return g->result;
  }

  // histogram<NUM_BINS>(x [, mask])
  if (!wantArgs(call, c, 1, 2))
    return nullptr;
  if (c.templateArgs.empty()) {
    error(call, "tl::histogram needs the number of bins: tl::histogram<NUM_BINS>(x)");
    return nullptr;
  }
  auto bins = templateArgSym(c.templateArgs[0]);
  if (!bins)
    return nullptr;
  const std::string spelled = "tl::histogram<" + bins->str() + ">";
  if (bins->isConst() && (bins->value() <= 0 || (bins->value() & (bins->value() - 1)))) {
    std::string up = std::to_string(powerOfTwoAbove(std::max<int64_t>(bins->value(), 1)));
    error(call, spelled + ": the number of bins is the size of the result tile, a power of " +
                    "two; write tl::histogram<" + up + ">(x) and leave the bins from " +
                    bins->str() + " on unused");
    return nullptr;
  }
  if (bins->isConst() && bins->value() > kMaxBins) {
    std::string most = std::to_string(kMaxBins);
    error(call, spelled + ": the bins are counted in shared memory, which holds at most " + most +
                    "; count the values in ranges of " + most + " (tl::histogram<" + most +
                    ">(x - base))");
    return nullptr;
  }
  Value *x = lowerExpr(call->getArg(0));
  if (!x)
    return nullptr;
  if (x->type.isScalar() || x->type.pointer) {
    error(call->getArg(0), "tl::histogram takes a rank-1 tile of integers");
    return nullptr;
  }
  if (x->type.shape.size() != 1) {
    error(call->getArg(0), "tl::histogram takes a rank-1 tile, not " + x->type.shapeStr() +
                               "; flatten it first: tl::histogram<" + bins->str() +
                               ">(tl::ravel(x))");
    return nullptr;
  }
  const ElemType &e = x->type.elem;
  if (e.isKnown() && !e.isInteger() && !e.is(ScalarKind::Bool)) {
    error(call->getArg(0), "tl::histogram counts integers, not " + e.cuda() +
                               " values; convert them first: tl::histogram<" + bins->str() +
                               ">(tl::cast<int>(x))");
    return nullptr;
  }
  std::vector<Value *> operands = {x};
  if (givenArgs(call) == 2) {
    Value *mask = lowerExpr(call->getArg(1));
    if (!boolMask(mask, call->getArg(1)))
      return nullptr;
    // Triton broadcasts the mask to the input's shape.
    if (mask->type.isScalar())
      mask = emit(OpKind::Splat, {mask}, Type{mask->type.elem, false, false, x->type.shape}, call)
                 ->result;
    else if (!sameShape(mask->type.shape, x->type.shape))
      mask = broadcastTo(mask, x->type.shape, call->getArg(1));
    if (!mask)
      return nullptr;
    operands.push_back(mask);
  }
  Type t{ElemType::known(ScalarKind::I32), false, false, {*bins}};
  return emit(OpKind::Histogram, operands, t, call)->result;
}

} // namespace tilec
