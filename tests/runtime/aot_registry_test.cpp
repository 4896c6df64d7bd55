// Choosing among kernels compiled ahead of time: same template arguments up to DIV16, and
// the variant assuming the most facts that all hold at the launch.
#include "aot_registry.h"

#include <tilec/runtime.h>

#include <gtest/gtest.h>

namespace {

int tag_0, tag_1, tag_3, tag_5, tag_other;
void *resolve_0() { return &tag_0; }
void *resolve_1() { return &tag_1; }
void *resolve_3() { return &tag_3; }
void *resolve_5() { return &tag_5; }
void *resolve_other() { return &tag_other; }

void *chosen_for(const std::string &expr) {
  tilec::detail::AotResolver r = tilec::detail::find_aot_kernel(expr);
  return r ? r() : nullptr;
}

class AotRegistry : public testing::Test {
protected:
  static void SetUpTestSuite() {
    tilec::register_aot_kernel("aot_add<1024, 4, 3, 0u>", resolve_0);
    tilec::register_aot_kernel("aot_add<1024, 4, 3, 1u>", resolve_1);
    tilec::register_aot_kernel("aot_add<1024,4,3,3u>", resolve_3); // spacing differs
    tilec::register_aot_kernel("aot_add<1024, 4, 3, 5u>", resolve_5);
    tilec::register_aot_kernel("aot_add<512, 4, 3, 7u>", resolve_other);
  }
};

} // namespace

TEST_F(AotRegistry, ExactMaskWins) {
  EXPECT_EQ(chosen_for("aot_add<1024, 4, 3, 3u>"), &tag_3);
  EXPECT_EQ(chosen_for("aot_add<1024, 4, 3, 1u>"), &tag_1);
  EXPECT_EQ(chosen_for("aot_add<1024, 4, 3, 0u>"), &tag_0);
}

TEST_F(AotRegistry, LargestSubsetOfTheLaunchMask) {
  // 7 = {0,1,2}: 3 and 5 both fit with two facts; the larger value breaks the tie.
  EXPECT_EQ(chosen_for("aot_add<1024, 4, 3, 7u>"), &tag_5);
  EXPECT_EQ(chosen_for("aot_add<1024, 4, 3, 11u>"), &tag_3); // 11 = {0,1,3}
  EXPECT_EQ(chosen_for("aot_add<1024, 4, 3, 9u>"), &tag_1);  // 9 = {0,3}
  EXPECT_EQ(chosen_for("aot_add<1024, 4, 3, 6u>"), &tag_0);  // neither 1, 3 nor 5 holds
}

TEST_F(AotRegistry, NeverAssumesAFactTheLaunchLacks) {
  // aot_add<512,...,7u> is the only 512 variant; a launch without all of 7's facts misses.
  EXPECT_EQ(chosen_for("aot_add<512, 4, 3, 3u>"), nullptr);
  EXPECT_EQ(chosen_for("aot_add<512, 4, 3, 15u>"), &tag_other);
}

TEST_F(AotRegistry, OtherArgumentsMustMatch) {
  EXPECT_EQ(chosen_for("aot_add<1024, 8, 3, 7u>"), nullptr);
  EXPECT_EQ(chosen_for("other_add<1024, 4, 3, 7u>"), nullptr);
}

TEST_F(AotRegistry, ReportsTheChosenName) {
  std::string name;
  ASSERT_NE(tilec::detail::find_aot_kernel("aot_add<1024, 4, 3, 7u>", &name), nullptr);
  EXPECT_EQ(name, "aot_add<1024, 4, 3, 5u>");
}
