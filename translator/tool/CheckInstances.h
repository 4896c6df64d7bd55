// What `tilec --check` compiles: the specializations that will be launched when the input
// says which, small representative ones otherwise.
#pragma once

#include "codegen/Codegen.h"

#include <string>
#include <vector>

namespace tilec {

struct CheckInstances {
  std::vector<std::string> names;  // name expressions for NVRTC
  std::vector<std::string> chosen; // one per kernel that no --aot names, for messages
  bool fallback = false;           // some kernel has neither --aot specs nor autotune configs
};

/// For each kernel: its --aot specs; else each of its TILEC_AUTOTUNE configs (other template
/// parameters as below); else types float, bools false and ints `fallbackInt`.
CheckInstances checkInstances(const std::vector<const Kernel *> &kernels,
                              const std::vector<AotSpec> &specs,
                              const std::vector<AutotuneDecl> &autotune,
                              const std::string &fallbackInt);

} // namespace tilec
