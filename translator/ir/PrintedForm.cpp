// The flags and fields of an op's printed line, and what region arguments and control-flow
// results print after them (see PrintedForm.h).
#include "ir/PrintedForm.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace tilec {

bool printsAxisInfo(const Value &v) {
  return v.type.isTile() && !v.type.shared &&
         (v.type.pointer || v.type.elem.isInteger() || v.type.elem.is(ScalarKind::Bool));
}

std::string axisInfoText(const Value &v) {
  return "{contig=" + v.info.contiguity.str() + " div=" + v.info.divisibility.str() +
         " const=" + v.info.constancy.str() + "}";
}

std::string valueAnnotations(const Kernel &, const Value &v) {
  std::string s = v.layout >= 0 ? " #" + std::to_string(v.layout) : "";
  bool known = !v.info.contiguity.isConst(1) || !v.info.divisibility.isConst(1) ||
               !v.info.constancy.isConst(1);
  if (known && printsAxisInfo(v))
    s += "  " + axisInfoText(v);
  return s;
}

std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += std::string("\\") + c;
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if ((unsigned char)c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", unsigned((unsigned char)c));
      out += buf;
    } else
      out += c;
  }
  return out + "\"";
}

namespace {

/// A bare word for a bool field of Op.
OpWord flag(const char *word, bool &(*field)(Op &)) {
  return {
      word,
      [=](const Kernel &, const Op &op) {
        return field(const_cast<Op &>(op)) ? std::string(word) : "";
      },
      [=](Kernel &, Op &op, const std::string &arg) { return arg.empty() && (field(op) = true); }};
}

/// `word(expr)` for a SymExpr field that is 0 when unset: a number or a C++ expression over
/// template parameters.
OpWord symWord(const char *word, SymExpr &(*field)(Op &)) {
  return {word,
          [=](const Kernel &, const Op &op) {
            const SymExpr &v = field(const_cast<Op &>(op));
            return v.isConst(0) ? std::string() : std::string(word) + "(" + v.str() + ")";
          },
          [=](Kernel &, Op &op, const std::string &arg) {
            if (arg.empty())
              return false;
            char *end = nullptr;
            long long v = std::strtoll(arg.c_str(), &end, 10);
            field(op) = *end == '\0' ? SymExpr(v) : SymExpr::expr(arg, false);
            return true;
          }};
}

OpWord stage(const char *word, Op::Stage st) {
  return {word,
          [=](const Kernel &, const Op &op) { return op.stage == st ? std::string(word) : ""; },
          [=](Kernel &, Op &op, const std::string &arg) {
            op.stage = st;
            return arg.empty();
          }};
}

/// "0, 2" -> {0, 2}; false unless every item is a number below `limit`.
bool indexList(const std::string &text, size_t limit, std::vector<size_t> &out) {
  std::istringstream is(text);
  std::string item;
  while (std::getline(is, item, ',')) {
    char *end = nullptr;
    unsigned long v = std::strtoul(item.c_str(), &end, 10);
    if (end == item.c_str() || *end != '\0' || v >= limit)
      return false;
    out.push_back(v);
  }
  return true;
}

} // namespace

const std::vector<OpWord> &opWords() {
  static const std::vector<OpWord> words = {
      {"constexpr",
       [](const Kernel &, const Op &op) {
         return op.constexprCond.empty() ? "" : "constexpr(" + op.constexprCond + ")";
       },
       [](Kernel &, Op &op, const std::string &arg) { return !(op.constexprCond = arg).empty(); }},
      flag("unrolled", [](Op &op) -> bool & { return op.unrolled; }),
      flag("rolled", [](Op &op) -> bool & { return op.rolled; }),
      symWord("num_stages", [](Op &op) -> SymExpr & { return op.loopStages; }),
      symWord("unroll", [](Op &op) -> SymExpr & { return op.unrollFactor; }),
      flag("no_warp_specialize", [](Op &op) -> bool & { return op.noWarpSpecialize; }),
      {"pipelined", [](const Kernel &, const Op &op) { return op.pipelined ? "pipelined" : ""; },
       [](Kernel &, Op &op, const std::string &arg) {
         op.pipelined = true;
         op.producerCarried.resize(op.results.size(), false);
         return arg.empty();
       }},
      // The carried variables that only serve the pipelined loads (by position).
      {"producer_carried",
       [](const Kernel &, const Op &op) {
         std::string list;
         for (size_t i = 0; i < op.producerCarried.size(); ++i)
           if (op.producerCarried[i])
             list += (list.empty() ? "" : ", ") + std::to_string(i);
         return list.empty() ? "" : "producer_carried(" + list + ")";
       },
       [](Kernel &, Op &op, const std::string &arg) {
         std::vector<size_t> carried;
         if (!indexList(arg, op.results.size(), carried) || carried.empty())
           return false;
         op.producerCarried.resize(op.results.size(), false);
         for (size_t i : carried)
           op.producerCarried[i] = true;
         return true;
       }},
      flag("async", [](Op &op) -> bool & { return op.asyncCopy; }),
      flag("a^T", [](Op &op) -> bool & { return op.dotTransposed[0]; }),
      flag("b^T", [](Op &op) -> bool & { return op.dotTransposed[1]; }),
      flag("a:regs", [](Op &op) -> bool & { return op.dotRegistersA; }),
      flag("nowait", [](Op &op) -> bool & { return op.dotNoWait; }),
      flag("zero_acc", [](Op &op) -> bool & { return op.dotZeroAcc; }),
      flag("zero_if_grid_1", [](Op &op) -> bool & { return op.zeroIfGridOne; }),
      stage("producer", Op::Stage::Producer),
      stage("producer+consumer", Op::Stage::Both),
      // A load's or store's cache modifier, checked against the op's table.
      {"cache",
       [](const Kernel &, const Op &op) { return op.cache.empty() ? "" : "cache=" + op.cache; },
       [](Kernel &, Op &op, const std::string &arg) {
         op.cache = arg;
         return isCacheModifierOf(op.kind, arg);
       }},
      flag("volatile", [](Op &op) -> bool & { return op.isVolatile; }),
      flag("quad_runs", [](Op &op) -> bool & { return op.quadRuns; }),
      {"constraints",
       [](const Kernel &, const Op &op) {
         return op.asmConstraints.empty() ? "" : "constraints(" + op.asmConstraints + ")";
       },
       [](Kernel &, Op &op, const std::string &arg) {
         return !(op.asmConstraints = arg).empty();
       }},
      flag("impure", [](Op &op) -> bool & { return op.asmImpure; }),
      {"axis",
       [](const Kernel &, const Op &op) {
         bool printed = op.kind == OpKind::ProgramId || op.kind == OpKind::NumPrograms;
         return printed ? "axis=" + std::to_string(op.axis) : "";
       },
       [](Kernel &, Op &op, const std::string &arg) {
         std::vector<size_t> axis;
         if (!indexList(arg, 3, axis) || axis.size() != 1)
           return false;
         op.axis = int(axis[0]);
         return true;
       }},
  };
  return words;
}

} // namespace tilec
