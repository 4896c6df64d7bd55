#include "ir/SymExpr.h"

#include <algorithm>
#include <functional>
#include <numeric>

namespace tilec {

SymExpr SymExpr::expr(std::string text, bool atomic) {
  SymExpr e;
  e.isConst_ = false;
  e.atomic_ = atomic;
  e.text_ = std::move(text);
  return e;
}

SymExpr symCall(const char *fn, const SymExpr &a, const SymExpr &b) {
  SymExpr e = SymExpr::expr(std::string(fn) + "(" + a.str() + ", " + b.str() + ")", true);
  e.fn_ = fn;
  e.lhs_ = std::make_shared<SymExpr>(a);
  e.rhs_ = std::make_shared<SymExpr>(b);
  return e;
}

SymExpr symSelect(const std::string &cond, const SymExpr &a, const SymExpr &b) {
  if (a.sameAs(b))
    return a;
  SymExpr e = SymExpr::expr("(" + cond + " ? " + a.str() + " : " + b.str() + ")", true);
  e.fn_ = "?:";
  e.cond_ = cond;
  e.lhs_ = std::make_shared<SymExpr>(a);
  e.rhs_ = std::make_shared<SymExpr>(b);
  return e;
}

namespace {

using Fold = std::function<SymExpr(const SymExpr &, const SymExpr &)>;

/// Pushes `op` into the branches of a select when the other side is a constant or a select
/// on the same condition: gcd((c ? 16 : 4), 16) -> (c ? 16 : 4).
bool distribute(const SymExpr &a, const SymExpr &b, const Fold &op, SymExpr &out) {
  if (a.fn() == "?:" && (b.isConst() || (b.fn() == "?:" && b.cond() == a.cond()))) {
    const SymExpr &bt = b.isConst() ? b : *b.lhs();
    const SymExpr &bf = b.isConst() ? b : *b.rhs();
    out = symSelect(a.cond(), op(*a.lhs(), bt), op(*a.rhs(), bf));
    return true;
  }
  if (b.fn() == "?:" && a.isConst()) {
    out = symSelect(b.cond(), op(a, *b.lhs()), op(a, *b.rhs()));
    return true;
  }
  return false;
}

/// op(op(p, q), r) with r one of p, q is op(p, q) for idempotent op (min, max, gcd).
bool absorbs(const SymExpr &call, const SymExpr &other, const char *fn) {
  return call.fn() == fn && (call.lhs()->sameAs(other) || call.rhs()->sameAs(other));
}

// True when `a` is tilec::gcd(b, ...) or tilec::gcd(..., b): then a <= b.
bool isGcdOf(const SymExpr &a, const SymExpr &b) {
  return a.fn() == "tilec::gcd" && (a.lhs()->sameAs(b) || a.rhs()->sameAs(b));
}

} // namespace

SymExpr operator+(const SymExpr &a, const SymExpr &b) {
  if (a.isConst() && b.isConst())
    return SymExpr(a.value() + b.value());
  if (a.isConst(0))
    return b;
  if (b.isConst(0))
    return a;
  return SymExpr::expr(a.str() + " + " + b.str(), false);
}

SymExpr operator-(const SymExpr &a, const SymExpr &b) {
  if (a.isConst() && b.isConst())
    return SymExpr(a.value() - b.value());
  if (b.isConst(0))
    return a;
  return SymExpr::expr(a.str() + " - " + b.operand(), false);
}

SymExpr operator*(const SymExpr &a, const SymExpr &b) {
  if (a.isConst() && b.isConst())
    return SymExpr(std::min(a.value() * b.value(), SymExpr::kUnbounded));
  if (a.isConst(1))
    return b;
  if (b.isConst(1))
    return a;
  SymExpr out;
  if (distribute(a, b, [](const SymExpr &x, const SymExpr &y) { return x * y; }, out))
    return out;
  return SymExpr::expr(a.operand() + " * " + b.operand(), false);
}

SymExpr operator/(const SymExpr &a, const SymExpr &b) {
  if (a.isConst() && b.isConst() && b.value() != 0)
    return SymExpr(a.value() / b.value());
  if (b.isConst(1))
    return a;
  SymExpr out;
  if (b.isConst() &&
      distribute(a, b, [](const SymExpr &x, const SymExpr &y) { return x / y; }, out))
    return out;
  return SymExpr::expr(a.operand() + " / " + b.operand(), false);
}

SymExpr symMin(const SymExpr &a, const SymExpr &b) {
  if (a.isConst() && b.isConst())
    return SymExpr(std::min(a.value(), b.value()));
  if (a.sameAs(b) || b.isConst(SymExpr::kUnbounded) || isGcdOf(a, b) ||
      absorbs(a, b, "tilec::cmin"))
    return a;
  if (a.isConst(SymExpr::kUnbounded) || isGcdOf(b, a) || absorbs(b, a, "tilec::cmin"))
    return b;
  // Every quantity here is >= 1.
  if (a.isConst(1) || b.isConst(1))
    return SymExpr(1);
  SymExpr out;
  if (distribute(a, b, symMin, out))
    return out;
  return symCall("tilec::cmin", a, b);
}

SymExpr symMax(const SymExpr &a, const SymExpr &b) {
  if (a.isConst() && b.isConst())
    return SymExpr(std::max(a.value(), b.value()));
  if (a.sameAs(b) || b.isConst(1) || absorbs(a, b, "tilec::cmax"))
    return a;
  if (a.isConst(1) || absorbs(b, a, "tilec::cmax"))
    return b;
  SymExpr out;
  if (distribute(a, b, symMax, out))
    return out;
  return symCall("tilec::cmax", a, b);
}

SymExpr symGcd(const SymExpr &a, const SymExpr &b) {
  if (a.isConst() && b.isConst())
    return SymExpr(std::gcd(a.value(), b.value()));
  if (a.sameAs(b) || b.isConst(SymExpr::kUnbounded) || absorbs(a, b, "tilec::gcd"))
    return a;
  if (a.isConst(SymExpr::kUnbounded) || absorbs(b, a, "tilec::gcd"))
    return b;
  if (a.isConst(1) || b.isConst(1))
    return SymExpr(1);
  // gcd(x, pow2_factor(x)) is pow2_factor(x).
  if (b.str() == "tilec::pow2_factor(" + a.str() + ")")
    return b;
  if (a.str() == "tilec::pow2_factor(" + b.str() + ")")
    return a;
  SymExpr out;
  if (distribute(a, b, symGcd, out))
    return out;
  return symCall("tilec::gcd", a, b);
}

SymExpr symPow2Factor(const SymExpr &a) {
  if (a.isConst()) {
    int64_t v = a.value() < 0 ? -a.value() : a.value();
    if (v == 0)
      return SymExpr(SymExpr::kUnbounded);
    return SymExpr(std::min(v & -v, SymExpr::kUnbounded));
  }
  return SymExpr::expr("tilec::pow2_factor(" + a.str() + ")", true);
}

} // namespace tilec
