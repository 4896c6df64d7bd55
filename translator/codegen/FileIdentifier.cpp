#include "codegen/FileIdentifier.h"

#include <cctype>

namespace tilec {

namespace {

// C++20's keywords and alternative tokens, and the namespaces generated code names from
// inside tilec_generated::<id> (`tilec`, `tl`, `std`): an inner namespace of that name
// would hide them.
// One string, each name between spaces, so that it reads as a list.
const std::string kTaken =
    " alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t"
    " char16_t char32_t class compl concept const consteval constexpr constinit const_cast"
    " continue co_await co_return co_yield decltype default delete do double dynamic_cast"
    " else enum explicit export extern false float for friend goto if inline int long"
    " mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected"
    " public register reinterpret_cast requires return short signed sizeof static"
    " static_assert static_cast struct switch template this thread_local throw true try"
    " typedef typeid typename union unsigned using virtual void volatile wchar_t while xor"
    " xor_eq tilec tilec_generated tl std ";

} // namespace

std::string fileIdentifier(const std::string &stem) {
  std::string id;
  for (unsigned char c : stem)
    id += std::isalnum(c) || c == '_' ? char(c) : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0])))
    id = "_" + id;
  if (kTaken.find(" " + id + " ") != std::string::npos)
    id += "_";
  return id;
}

} // namespace tilec
