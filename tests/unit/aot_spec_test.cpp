// --aot specs, the DIV16 masks instantiated ahead of time, and the name expressions the
// runtime looks kernels up by.
#include "codegen/Codegen.h"

#include <gtest/gtest.h>

namespace tilec {
namespace {

AotSpec parse(const std::string &text) {
  AotSpec s;
  EXPECT_EQ(parseAotSpec(text, s), "") << text;
  return s;
}

std::string parseError(const std::string &text) {
  AotSpec s;
  return parseAotSpec(text, s);
}

TEST(AotSpec, KernelAndTemplateArguments) {
  AotSpec s = parse("add_kernel<1024>");
  EXPECT_EQ(s.kernel, "add_kernel");
  EXPECT_EQ(s.templateArgs, std::vector<std::string>{"1024"});
  EXPECT_EQ(s.numWarps, 4);
  EXPECT_EQ(s.numStages, 3);
}

TEST(AotSpec, LaunchOptions) {
  AotSpec s = parse("scale<float, 256>:8:2");
  EXPECT_EQ(s.templateArgs, (std::vector<std::string>{"float", "256"}));
  EXPECT_EQ(s.numWarps, 8);
  EXPECT_EQ(s.numStages, 2);
  AotSpec w = parse("scale<float,256>:1");
  EXPECT_EQ(w.numWarps, 1);
  EXPECT_EQ(w.numStages, 3);
}

TEST(AotSpec, NestedTemplateArgumentsKeepTheirCommas) {
  AotSpec s = parse(" k < tilec::pair<1, 2>, (3, 4), tl::half > ");
  EXPECT_EQ(s.kernel, "k");
  EXPECT_EQ(s.templateArgs, (std::vector<std::string>{"tilec::pair<1, 2>", "(3, 4)", "tl::half"}));
}

TEST(AotSpec, NoTemplateArguments) {
  AotSpec s = parse("fill<>:2");
  EXPECT_EQ(s.kernel, "fill");
  EXPECT_TRUE(s.templateArgs.empty());
  EXPECT_EQ(s.numWarps, 2);
}

TEST(AotSpec, Errors) {
  EXPECT_NE(parseError("add_kernel").find("expected 'kernel<args>'"), std::string::npos);
  EXPECT_NE(parseError("add_kernel>1<").find("expected"), std::string::npos);
  EXPECT_NE(parseError("k<1>:x").find("bad launch options"), std::string::npos);
  EXPECT_NE(parseError("k<1>:3").find("power of two"), std::string::npos);
  EXPECT_NE(parseError("k<1>:64").find("power of two"), std::string::npos);
  EXPECT_NE(parseError("k<1>:0").find("power of two"), std::string::npos);
}

KernelParam param(const std::string &name, ScalarKind kind, bool pointer) {
  return {name, Type{ElemType::known(kind), pointer, false, {}}};
}

TEST(AotDiv16Masks, NoneThenPointersThenAll) {
  Kernel k;
  k.name = "add_kernel";
  k.params = {param("x", ScalarKind::F32, true), param("y", ScalarKind::F32, true),
              param("out", ScalarKind::F32, true), param("n", ScalarKind::I32, false)};
  EXPECT_EQ(aotDiv16Masks(k), (std::vector<uint64_t>{0u, 7u, 15u}));
}

TEST(AotDiv16Masks, NoRepeatedMasks) {
  Kernel floats; // a float scalar cannot carry the fact: "all" is "pointers"
  floats.params = {param("x", ScalarKind::F16, true), param("s", ScalarKind::F32, false)};
  EXPECT_EQ(aotDiv16Masks(floats), (std::vector<uint64_t>{0u, 1u}));
  Kernel ints; // no pointers
  ints.params = {param("n", ScalarKind::I64, false), param("s", ScalarKind::F64, false)};
  EXPECT_EQ(aotDiv16Masks(ints), (std::vector<uint64_t>{0u, 1u}));
  Kernel none;
  EXPECT_EQ(aotDiv16Masks(none), (std::vector<uint64_t>{0u}));
}

TEST(NameExpression, TemplateArgumentsThenLaunchOptionsThenMask) {
  Kernel k;
  k.name = "add_kernel";
  EXPECT_EQ(nameExpression(k, parse("add_kernel<1024>"), 0u), "add_kernel<1024, 4, 3, 0u>");
  EXPECT_EQ(nameExpression(k, parse("add_kernel<tl::half, 64>:8:1"), 15u),
            "add_kernel<tl::half, 64, 8, 1, 15u>");
  EXPECT_EQ(nameExpression(k, parse("add_kernel<>"), 1u), "add_kernel<4, 3, 1u>");
}

} // namespace
} // namespace tilec
