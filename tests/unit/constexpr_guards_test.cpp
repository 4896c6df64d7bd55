// GuardSet: where something occurs under the user's `if constexpr` conditions, simplified to
// the C++ condition that the launcher's checks and the layouts' run bounds print.
#include "ir/ConstexprGuards.h"

#include <gtest/gtest.h>

namespace tilec {
namespace {

TEST(GuardSet, UnguardedIsAlways) {
  GuardSet s;
  s.add({"(A)"});
  s.add({});
  EXPECT_TRUE(s.always());
  EXPECT_EQ(s.condition(), "");
}

TEST(GuardSet, BothArmsOfABranchMakeItsEnclosingGuard) {
  GuardSet s;
  s.add({"(A)", "(B)"});
  s.add({"(A)", "!(B)"});
  EXPECT_FALSE(s.always());
  EXPECT_EQ(s.condition(), "(A)");
  s.add({"!(A)"});
  EXPECT_TRUE(s.always());
}

TEST(GuardSet, AGuardWithEveryConditionOfAnotherGoes) {
  GuardSet s;
  s.add({"(HAS_LABEL)", "(MODE == 0)"}); // a store inside two branches
  s.add({"(MODE == 0)"});                // the same store under one of them
  EXPECT_EQ(s.condition(), "(MODE == 0)");
}

TEST(GuardSet, UnrelatedGuardsStayADisjunction) {
  GuardSet s;
  s.add({"(A)"});
  s.add({"(B)", "(C)"});
  EXPECT_EQ(s.condition(), "((A)) || ((B) && (C))");
}

} // namespace
} // namespace tilec
