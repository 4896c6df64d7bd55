#include "ir/SymExpr.h"

#include <algorithm>
#include <numeric>

namespace tilec {

SymExpr SymExpr::expr(std::string text, bool atomic) {
  SymExpr e;
  e.isConst_ = false;
  e.atomic_ = atomic;
  e.text_ = std::move(text);
  return e;
}

static SymExpr call(const char* fn, const SymExpr& a, const SymExpr& b) {
  return SymExpr::expr(std::string(fn) + "(" + a.str() + ", " + b.str() + ")", true);
}

SymExpr operator+(const SymExpr& a, const SymExpr& b) {
  if (a.isConst() && b.isConst())
    return SymExpr(a.value() + b.value());
  if (a.isConst(0))
    return b;
  if (b.isConst(0))
    return a;
  return SymExpr::expr(a.str() + " + " + b.str(), false);
}

SymExpr operator-(const SymExpr& a, const SymExpr& b) {
  if (a.isConst() && b.isConst())
    return SymExpr(a.value() - b.value());
  if (b.isConst(0))
    return a;
  return SymExpr::expr(a.str() + " - " + b.operand(), false);
}

SymExpr operator*(const SymExpr& a, const SymExpr& b) {
  if (a.isConst() && b.isConst())
    return SymExpr(std::min(a.value() * b.value(), SymExpr::kUnbounded));
  if (a.isConst(1))
    return b;
  if (b.isConst(1))
    return a;
  return SymExpr::expr(a.operand() + " * " + b.operand(), false);
}

SymExpr operator/(const SymExpr& a, const SymExpr& b) {
  if (a.isConst() && b.isConst() && b.value() != 0)
    return SymExpr(a.value() / b.value());
  if (b.isConst(1))
    return a;
  return SymExpr::expr(a.operand() + " / " + b.operand(), false);
}

// True when `a` prints as tilec::gcd(b, ...) or tilec::gcd(..., b): then a <= b.
static bool isGcdOf(const SymExpr& a, const SymExpr& b) {
  const std::string& t = a.str();
  return t.rfind("tilec::gcd(" + b.str() + ", ", 0) == 0 ||
         (t.rfind("tilec::gcd(", 0) == 0 && t.size() > b.str().size() + 2 &&
          t.compare(t.size() - b.str().size() - 3, b.str().size() + 3, ", " + b.str() + ")") == 0);
}

SymExpr symMin(const SymExpr& a, const SymExpr& b) {
  if (a.isConst() && b.isConst())
    return SymExpr(std::min(a.value(), b.value()));
  if (a.sameAs(b) || b.isConst(SymExpr::kUnbounded) || isGcdOf(a, b))
    return a;
  if (a.isConst(SymExpr::kUnbounded) || isGcdOf(b, a))
    return b;
  // Every quantity here is >= 1.
  if (a.isConst(1) || b.isConst(1))
    return SymExpr(1);
  return call("tilec::cmin", a, b);
}

SymExpr symMax(const SymExpr& a, const SymExpr& b) {
  if (a.isConst() && b.isConst())
    return SymExpr(std::max(a.value(), b.value()));
  // Every quantity here is >= 1.
  if (a.sameAs(b) || b.isConst(1))
    return a;
  if (a.isConst(1))
    return b;
  return call("tilec::cmax", a, b);
}

SymExpr symGcd(const SymExpr& a, const SymExpr& b) {
  if (a.isConst() && b.isConst())
    return SymExpr(std::gcd(a.value(), b.value()));
  if (a.sameAs(b) || b.isConst(SymExpr::kUnbounded))
    return a;
  if (a.isConst(SymExpr::kUnbounded))
    return b;
  if (a.isConst(1) || b.isConst(1))
    return SymExpr(1);
  // gcd(x, pow2_factor(x)) is pow2_factor(x).
  if (b.str() == "tilec::pow2_factor(" + a.str() + ")")
    return b;
  if (a.str() == "tilec::pow2_factor(" + b.str() + ")")
    return a;
  return call("tilec::gcd", a, b);
}

SymExpr symPow2Factor(const SymExpr& a) {
  if (a.isConst()) {
    int64_t v = a.value() < 0 ? -a.value() : a.value();
    if (v == 0)
      return SymExpr(SymExpr::kUnbounded);
    return SymExpr(std::min(v & -v, SymExpr::kUnbounded));
  }
  return SymExpr::expr("tilec::pow2_factor(" + a.str() + ")", true);
}

SymExpr symSelect(const std::string& cond, const SymExpr& a, const SymExpr& b) {
  if (a.sameAs(b))
    return a;
  return SymExpr::expr("(" + cond + " ? " + a.str() + " : " + b.str() + ")", true);
}

} // namespace tilec
