// Target: the architectures --arch accepts, what each guarantees, and the errors for the rest.
#include "codegen/Codegen.h"
#include "target/Target.h"
#include "tool/Translate.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

namespace tilec {
namespace {

Target parse(const std::string &arch) {
  Target t;
  EXPECT_EQ(Target::parse(arch, t), "") << arch;
  return t;
}

std::string parseError(const std::string &arch) {
  Target t;
  t.arch = "untouched";
  std::string err = Target::parse(arch, t);
  EXPECT_EQ(t.arch, "untouched") << "a failed parse leaves the target alone";
  return err;
}

TEST(Target, DefaultIsSm90a) {
  Target t = Target::defaultTarget();
  EXPECT_EQ(t.arch, "sm_90a");
  EXPECT_EQ(t.major, 9);
  EXPECT_EQ(t.minor, 0);
  EXPECT_TRUE(t.archSpecific);
  EXPECT_EQ(TranslateOptions().target.arch, "sm_90a");
}

TEST(Target, Ampere) {
  Target t = parse("sm_80");
  EXPECT_EQ(t.major, 8);
  EXPECT_EQ(t.minor, 0);
  EXPECT_FALSE(t.archSpecific);
  EXPECT_EQ(t.warpSize, 32);
  EXPECT_TRUE(t.mmaSync);
  EXPECT_FALSE(t.mmaSyncFp8);
  EXPECT_FALSE(t.wgmma);
  EXPECT_TRUE(t.cpAsync);
  EXPECT_TRUE(t.mbarrier);
  EXPECT_FALSE(t.mbarrierTx);
  EXPECT_FALSE(t.tma);
  EXPECT_EQ(t.smemPerBlock, 48 * 1024);
  EXPECT_EQ(t.smemPerBlockOptin, 163 * 1024);
}

TEST(Target, AdaHasFp8MmaButNoHopperFeatures) {
  Target t = parse("sm_89");
  EXPECT_TRUE(t.mmaSync);
  EXPECT_TRUE(t.mmaSyncFp8);
  EXPECT_FALSE(t.wgmma);
  EXPECT_FALSE(t.tma);
  EXPECT_EQ(t.smemPerBlockOptin, 99 * 1024);
}

TEST(Target, WgmmaOnlyOnSm90a) {
  Target plain = parse("sm_90"), specific = parse("sm_90a");
  EXPECT_FALSE(plain.wgmma);
  EXPECT_TRUE(specific.wgmma);
  for (const Target &t : {plain, specific}) {
    EXPECT_TRUE(t.mmaSync);
    EXPECT_TRUE(t.cpAsync);
    EXPECT_TRUE(t.tma);
    EXPECT_TRUE(t.mbarrier);
    EXPECT_TRUE(t.mbarrierTx);
    EXPECT_EQ(t.smemPerBlock, 48 * 1024);
    EXPECT_EQ(t.smemPerBlockOptin, 227 * 1024);
  }
  // Blackwell keeps TMA but has no wgmma, "a" or not.
  EXPECT_FALSE(parse("sm_100a").wgmma);
  EXPECT_TRUE(parse("sm_100a").tma);
}

TEST(Target, EveryKnownArchParsesToItself) {
  const auto &known = Target::knownArchs();
  ASSERT_FALSE(known.empty());
  EXPECT_EQ(known.front(), "sm_80");
  int last = 0;
  for (const std::string &arch : known) {
    Target t = parse(arch);
    EXPECT_EQ(t.arch, arch);
    EXPECT_EQ(arch, "sm_" + std::to_string(t.major * 10 + t.minor) + (t.archSpecific ? "a" : ""));
    EXPECT_GE(t.major * 10 + t.minor, last) << "oldest first";
    last = t.major * 10 + t.minor;
    EXPECT_EQ(t.warpSize, 32);
    EXPECT_EQ(t.maxWarpsPerBlock(), 32);
    EXPECT_GE(t.smemPerBlockOptin, t.smemPerBlock);
  }
}

TEST(Target, OlderArchitecturesAreUnsupported) {
  for (const char *arch : {"sm_70", "sm_75"}) {
    std::string err = parseError(arch);
    EXPECT_NE(err.find(std::string("unsupported architecture '") + arch + "'"), std::string::npos)
        << err;
    EXPECT_NE(err.find("sm_80 and newer"), std::string::npos) << err;
  }
}

TEST(Target, UnknownNamesListTheKnownOnes) {
  for (const char *arch : {"", "bogus", "SM_90A", "sm90a", "compute_90a", "sm_90 "}) {
    std::string err = parseError(arch);
    EXPECT_FALSE(err.empty()) << "'" << arch << "' was accepted";
    EXPECT_NE(err.find("expected one of sm_80, "), std::string::npos) << err;
    EXPECT_NE(err.find("sm_90a"), std::string::npos) << err;
  }
  EXPECT_NE(parseError("bogus").find("unknown architecture 'bogus'"), std::string::npos);
}

// The generated CUDA names the warp size tilec::WARP_SIZE: the device library's constant must
// be the targets' warp size.
TEST(Target, DeviceLibraryWarpSizeIsTheTargets) {
  std::ifstream f(std::string(TILEC_TEMPLATES_DIR) + "/tilec/device/common/warp.cuh");
  ASSERT_TRUE(f.good());
  std::stringstream text;
  text << f.rdbuf();
  std::smatch m;
  std::string s = text.str();
  ASSERT_TRUE(std::regex_search(s, m, std::regex(R"(constexpr int WARP_SIZE = (\d+);)")));
  for (const std::string &arch : Target::knownArchs())
    EXPECT_EQ(std::stoi(m[1]), parse(arch).warpSize) << arch;
}

TEST(Target, EmittersDefaultToTheDefaultTarget) {
  EXPECT_EQ(EmitOptions().target.arch, Target::defaultTarget().arch);
}

} // namespace
} // namespace tilec
