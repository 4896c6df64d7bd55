// The C++ identifier that stands for an input file in generated code.
//
// A launcher header declares its kernels' source in `namespace tilec_generated::<stem>`, and
// file names need not be identifiers (`2fast.cpp`, `my-kernel.cpp`, `v1.2.cpp`,
// `namespace.cpp`): those are spelled as the nearest identifier instead.
#pragma once

#include <string>

namespace tilec {

/// `stem` with every character other than a letter, digit or '_' replaced by '_', a leading
/// '_' added before a digit, and a trailing '_' added to a C++ keyword: "my-kernel" ->
/// "my_kernel", "2fast" -> "_2fast", "namespace" -> "namespace_". Identifiers pass unchanged.
std::string fileIdentifier(const std::string &stem);

} // namespace tilec
