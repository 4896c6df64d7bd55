// --check: compiles generated CUDA with NVRTC for one architecture, instantiating the given
// name expressions so that template bodies are really compiled.
#pragma once

#include <string>
#include <vector>

namespace tilec {

/// Returns "" on success, else the NVRTC log.
std::string nvrtcCheck(const std::string &cuda, const std::string &sourceName,
                       const std::string &arch, const std::vector<std::string> &nameExpressions);

} // namespace tilec
