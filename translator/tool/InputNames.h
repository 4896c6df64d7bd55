// What the names of the input files must satisfy before anything is translated.
#pragma once

#include <string>
#include <vector>

namespace tilec {

/// "" when every input can be translated into the one output folder; otherwise the reason:
/// two inputs with the same stem (one would overwrite the other's <stem>.cu and .tilec.h),
/// two stems spelled as the same identifier (`my-kernel`, `my_kernel`: both launcher headers
/// would define tilec_generated::my_kernel), or a file name with a quote, a backslash or a
/// control character (the name is written into C++ strings and comments). With
/// `lineDirectives`, the same holds for the whole path, which #line spells.
std::string checkInputNames(const std::vector<std::string> &inputs, bool lineDirectives);

} // namespace tilec
