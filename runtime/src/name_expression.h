// name_expression.h - spelling kernel specializations as C++ template-ids
// ("add_kernel<1024, 4, 3, 7u>") and taking them apart again for AOT matching.
#pragma once

#include <tilec/runtime.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace tilec::detail {

/// "<name><k0, ..., num_warps, num_stages, DIV16u>" with each user value printed as its
/// kind says ('i' number, 'b' true/false, 't' CUDA type name). Throws tilec::Error when the
/// key does not have kinds + 3 values or a type id is unknown.
std::string build_name_expression(const char *name, const char *kinds, const SpecKey &key);

/// The CUDA spelling of a type_id<T>() value, or nullptr.
const char *type_name_for_id(int64_t id);

/// Whitespace removed except one space between two identifier characters
/// ("unsigned int"), so differently spaced spellings compare equal.
std::string normalize_name_expression(std::string_view expr);

/// Splits a normalized "name<a,b,DIV16u>" into "name<a,b," and the DIV16 value.
/// False when the last template argument is not an unsigned number.
bool split_div16(const std::string &normalized, std::string &prefix, uint64_t &mask);

} // namespace tilec::detail
