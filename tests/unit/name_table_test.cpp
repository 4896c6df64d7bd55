// Generated names: source names where free, deterministic fresh names otherwise.
#include "codegen/NameTable.h"

#include <gtest/gtest.h>

namespace tilec {
namespace {

TEST(NameTable, FreshNamesAvoidReservedAndUsedOnes) {
  NameTable names;
  names.reserve("i");
  EXPECT_EQ(names.fresh("offs"), "offs");
  EXPECT_EQ(names.fresh("offs"), "offs_1");
  EXPECT_EQ(names.fresh("offs"), "offs_2");
  EXPECT_EQ(names.fresh("i"), "i_1");
}

TEST(NameTable, ValuesKeepOneName) {
  NameTable names;
  Value named, unnamed;
  named.id = 3;
  named.name = "acc";
  unnamed.id = 7;
  EXPECT_EQ(names.of(&named), "acc");
  EXPECT_EQ(names.of(&unnamed), "t7");
  EXPECT_EQ(names.of(&named), "acc"); // asked again: the same name
  Value shadow;                       // another value bound to the same variable
  shadow.id = 9;
  shadow.name = "acc";
  EXPECT_EQ(names.of(&shadow), "acc_1");
}

} // namespace
} // namespace tilec
