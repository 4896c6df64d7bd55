// SymExpr: constants fold, identities simplify, the rest prints as constexpr C++.
#include "ir/SymExpr.h"

#include <gtest/gtest.h>

namespace tilec {
namespace {

const SymExpr kAll(SymExpr::kUnbounded);
SymExpr sym(const char *name) { return SymExpr::expr(name, true); }

TEST(SymExpr, ArithmeticOnConstantsFolds) {
  EXPECT_TRUE((SymExpr(3) + SymExpr(4)).isConst(7));
  EXPECT_TRUE((SymExpr(3) - SymExpr(4)).isConst(-1));
  EXPECT_TRUE((SymExpr(6) * SymExpr(7)).isConst(42));
  EXPECT_TRUE((SymExpr(16) / SymExpr(4)).isConst(4));
  // Products saturate at "divisible by anything".
  EXPECT_TRUE((kAll * SymExpr(4)).isConst(SymExpr::kUnbounded));
}

TEST(SymExpr, ArithmeticIdentities) {
  SymExpr b = sym("BLOCK");
  EXPECT_EQ((b + 0).str(), "BLOCK");
  EXPECT_EQ((SymExpr(0) + b).str(), "BLOCK");
  EXPECT_EQ((b - 0).str(), "BLOCK");
  EXPECT_EQ((b * 1).str(), "BLOCK");
  EXPECT_EQ((SymExpr(1) * b).str(), "BLOCK");
  EXPECT_EQ((b / 1).str(), "BLOCK");
  EXPECT_FALSE((b * 2).isConst());
}

TEST(SymExpr, PrintsWithParenthesesWhereNeeded) {
  SymExpr b = sym("BLOCK");
  EXPECT_EQ((b * 2).str(), "BLOCK * 2");
  EXPECT_EQ(((b + 1) * 2).str(), "(BLOCK + 1) * 2");
  EXPECT_EQ((b - (b + 1)).str(), "BLOCK - (BLOCK + 1)");
  EXPECT_EQ((SymExpr(16) / (b * 2)).str(), "16 / (BLOCK * 2)");
  EXPECT_EQ(symPow2Factor(b).operand(), "tilec::pow2_factor(BLOCK)");
}

TEST(SymExpr, MinIdentities) {
  SymExpr b = sym("BLOCK"), n = sym("N");
  EXPECT_TRUE(symMin(SymExpr(4), SymExpr(16)).isConst(4));
  EXPECT_EQ(symMin(b, b).str(), "BLOCK");
  EXPECT_EQ(symMin(b, kAll).str(), "BLOCK");
  EXPECT_EQ(symMin(kAll, b).str(), "BLOCK");
  // Every quantity is at least 1.
  EXPECT_TRUE(symMin(b, 1).isConst(1));
  EXPECT_TRUE(symMin(1, b).isConst(1));
  // gcd(BLOCK, N) <= BLOCK.
  SymExpr g = symGcd(b, n);
  EXPECT_EQ(symMin(g, b).str(), g.str());
  EXPECT_EQ(symMin(b, g).str(), g.str());
  EXPECT_EQ(symMin(b, n).str(), "tilec::cmin(BLOCK, N)");
}

TEST(SymExpr, MaxIdentities) {
  SymExpr b = sym("BLOCK");
  EXPECT_TRUE(symMax(SymExpr(4), SymExpr(16)).isConst(16));
  EXPECT_EQ(symMax(b, b).str(), "BLOCK");
  EXPECT_EQ(symMax(b, 1).str(), "BLOCK");
  EXPECT_EQ(symMax(1, b).str(), "BLOCK");
  EXPECT_EQ(symMax(b, 4).str(), "tilec::cmax(BLOCK, 4)");
}

TEST(SymExpr, GcdIdentities) {
  SymExpr b = sym("BLOCK");
  EXPECT_TRUE(symGcd(SymExpr(12), SymExpr(8)).isConst(4));
  EXPECT_TRUE(symGcd(kAll, SymExpr(16)).isConst(16));
  EXPECT_EQ(symGcd(b, b).str(), "BLOCK");
  EXPECT_EQ(symGcd(b, kAll).str(), "BLOCK");
  EXPECT_EQ(symGcd(kAll, b).str(), "BLOCK");
  EXPECT_TRUE(symGcd(b, 1).isConst(1));
  // gcd(x, pow2_factor(x)) is pow2_factor(x), either way round.
  SymExpr p = symPow2Factor(b);
  EXPECT_EQ(symGcd(b, p).str(), "tilec::pow2_factor(BLOCK)");
  EXPECT_EQ(symGcd(p, b).str(), "tilec::pow2_factor(BLOCK)");
  EXPECT_EQ(symGcd(b, 16).str(), "tilec::gcd(BLOCK, 16)");
}

TEST(SymExpr, Pow2Factor) {
  EXPECT_TRUE(symPow2Factor(12).isConst(4));
  EXPECT_TRUE(symPow2Factor(1).isConst(1));
  EXPECT_TRUE(symPow2Factor(-8).isConst(8));
  EXPECT_TRUE(symPow2Factor(1024).isConst(1024));
  // 0 is divisible by every power of two.
  EXPECT_TRUE(symPow2Factor(0).isConst(SymExpr::kUnbounded));
  EXPECT_EQ(symPow2Factor(sym("BLOCK")).str(), "tilec::pow2_factor(BLOCK)");
}

TEST(SymExpr, Select) {
  EXPECT_EQ(symSelect("n_div16", 16, 1).str(), "(n_div16 ? 16 : 1)");
  EXPECT_TRUE(symSelect("n_div16", 4, 4).isConst(4));
  EXPECT_FALSE(symSelect("n_div16", 16, 1).isConst());
}

} // namespace
} // namespace tilec
