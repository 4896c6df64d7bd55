// SymExpr: a small integer expression over template parameters, printed as C++.
//
// Tile shapes and the facts the analyses derive (contiguity, divisibility, vector widths)
// depend on compile-time parameters that stay symbolic in the generated CUDA: one
// translation serves every specialization. A SymExpr folds what it can (constants, x op x,
// identities, a select of constants with a constant) and otherwise prints a constexpr C++
// expression such as `tilec::gcd(tilec::pow2_factor(BLOCK), (n_div16 ? 16 : 1))`.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace tilec {

class SymExpr {
public:
  /// Stands for "divisible by any power of two" (the divisibility of 0); folded away by min/gcd.
  static constexpr int64_t kUnbounded = int64_t(1) << 30;

  SymExpr() : SymExpr(0) {}
  SymExpr(int64_t c) : isConst_(true), value_(c), text_(std::to_string(c)) {}
  /// An opaque C++ expression (a template parameter name, `sizeof(T)`, ...).
  static SymExpr expr(std::string text, bool atomic);

  bool isConst() const { return isConst_; }
  int64_t value() const { return value_; }
  bool isConst(int64_t c) const { return isConst_ && value_ == c; }
  /// The C++ spelling; `kUnbounded` prints as its number.
  const std::string &str() const { return text_; }
  /// Parenthesized when the expression is not a single token or call.
  std::string operand() const { return atomic_ || isConst_ ? text_ : "(" + text_ + ")"; }
  bool sameAs(const SymExpr &o) const { return text_ == o.text_; }

  // Structure kept for folding: `fn(lhs, rhs)` calls and `cond ? lhs : rhs` selects.
  const std::string &fn() const { return fn_; }     // "tilec::cmin", ..., "?:" or ""
  const std::string &cond() const { return cond_; } // selects only
  const SymExpr *lhs() const { return lhs_.get(); }
  const SymExpr *rhs() const { return rhs_.get(); }

  friend SymExpr operator+(const SymExpr &a, const SymExpr &b);
  friend SymExpr operator-(const SymExpr &a, const SymExpr &b);
  friend SymExpr operator*(const SymExpr &a, const SymExpr &b);
  friend SymExpr operator/(const SymExpr &a, const SymExpr &b);
  friend SymExpr symCall(const char *fn, const SymExpr &a, const SymExpr &b);
  friend SymExpr symSelect(const std::string &cond, const SymExpr &a, const SymExpr &b);

private:
  bool isConst_ = true;
  bool atomic_ = true;
  int64_t value_ = 0;
  std::string text_;
  std::string fn_, cond_;
  std::shared_ptr<const SymExpr> lhs_, rhs_;
};

/// Folding helpers; all operands are positive powers of two or products of them.
SymExpr symMin(const SymExpr &a, const SymExpr &b);
SymExpr symMax(const SymExpr &a, const SymExpr &b);
SymExpr symGcd(const SymExpr &a, const SymExpr &b);
/// The largest power of two dividing `a` (kUnbounded for 0).
SymExpr symPow2Factor(const SymExpr &a);
/// `cond ? a : b` where `cond` is a constexpr bool expression.
SymExpr symSelect(const std::string &cond, const SymExpr &a, const SymExpr &b);

} // namespace tilec
