#pragma once
// Where the translator finds what every parse and --check needs, relative to its own
// executable, so that an installed prefix can be moved: <exe>/../include holds tilec/tl.h and
// the device library (tilec/device.cuh), <exe>/../lib/tilec/clang is clang's resource folder
// (its builtin headers). The build tree stages the same layout (translator/CMakeLists.txt).
#include <string>

namespace tilec {

struct Resources {
  std::string include;       // -I for tilec/tl.h; $TILEC_INCLUDE_DIR overrides
  std::string templates;     // -I for tilec/device.cuh (--check); $TILEC_TEMPLATES_DIR overrides
  std::string clangResource; // clang's -resource-dir
};

/// The folders above, found from the running executable; "" for one that is missing.
const Resources &resources();

} // namespace tilec
