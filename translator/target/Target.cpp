#include "target/Target.h"

namespace tilec {

namespace {

struct ArchFacts {
  const char *arch;
  int major, minor;
  bool archSpecific;
  int smemOptinKiB;
};

// Oldest first; the feature flags follow from the compute capability (see Target.h).
const ArchFacts kArchs[] = {
    {"sm_80", 8, 0, false, 163},   {"sm_86", 8, 6, false, 99},    {"sm_87", 8, 7, false, 163},
    {"sm_89", 8, 9, false, 99},    {"sm_90", 9, 0, false, 227},   {"sm_90a", 9, 0, true, 227},
    {"sm_100", 10, 0, false, 227}, {"sm_100a", 10, 0, true, 227}, {"sm_120", 12, 0, false, 99},
};

} // namespace

const std::vector<std::string> &Target::knownArchs() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const ArchFacts &a : kArchs)
      v.push_back(a.arch);
    return v;
  }();
  return names;
}

std::string Target::parse(const std::string &arch, Target &out) {
  for (const ArchFacts &a : kArchs) {
    if (arch != a.arch)
      continue;
    Target t;
    t.arch = a.arch;
    t.major = a.major;
    t.minor = a.minor;
    t.archSpecific = a.archSpecific;
    const int cc = a.major * 10 + a.minor;
    t.mmaSync = true;
    t.mmaSyncFp8 = cc >= 89;
    t.wgmma = a.major == 9 && a.archSpecific;
    t.cpAsync = true;
    t.mbarrier = true;
    t.tma = t.mbarrierTx = cc >= 90;
    t.smemPerBlockOptin = a.smemOptinKiB * 1024;
    out = t;
    return "";
  }
  std::string known;
  for (const std::string &n : knownArchs())
    known += (known.empty() ? "" : ", ") + n;
  std::string why = arch.rfind("sm_", 0) == 0
                        ? "unsupported architecture '" + arch + "' (tilec targets sm_80 and newer)"
                        : "unknown architecture '" + arch + "'";
  return why + "; expected one of " + known;
}

Target Target::defaultTarget() {
  Target t;
  parse("sm_90a", t);
  return t;
}

} // namespace tilec
