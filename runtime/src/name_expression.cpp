#include "name_expression.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace tilec::detail {
namespace {

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

} // namespace

const char *type_name_for_id(int64_t id) {
  switch (id) {
  case type_id<bool>():
    return cuda_type_name<bool>();
  case type_id<int8_t>():
    return cuda_type_name<int8_t>();
  case type_id<uint8_t>():
    return cuda_type_name<uint8_t>();
  case type_id<int16_t>():
    return cuda_type_name<int16_t>();
  case type_id<uint16_t>():
    return cuda_type_name<uint16_t>();
  case type_id<int32_t>():
    return cuda_type_name<int32_t>();
  case type_id<uint32_t>():
    return cuda_type_name<uint32_t>();
  case type_id<int64_t>():
    return cuda_type_name<int64_t>();
  case type_id<uint64_t>():
    return cuda_type_name<uint64_t>();
  case type_id<float>():
    return cuda_type_name<float>();
  case type_id<double>():
    return cuda_type_name<double>();
  case type_id<tl::half>():
    return cuda_type_name<tl::half>();
  case type_id<tl::bfloat16>():
    return cuda_type_name<tl::bfloat16>();
  case type_id<tl::float8_e4m3>():
    return cuda_type_name<tl::float8_e4m3>();
  case type_id<tl::float8_e5m2>():
    return cuda_type_name<tl::float8_e5m2>();
  default:
    return nullptr;
  }
}

std::string build_name_expression(const char *name, const char *kinds, const SpecKey &key) {
  const int num_kinds = int(std::char_traits<char>::length(kinds));
  if (key.n != num_kinds + 3)
    throw Error(std::string("tilec: kernel ") + name + " expects " + std::to_string(num_kinds + 3) +
                " specialization values (template arguments, num_warps, num_stages, DIV16), "
                "got " +
                std::to_string(key.n));
  std::string s = std::string(name) + "<";
  for (int i = 0; i < key.n; ++i) {
    if (i > 0)
      s += ", ";
    const int64_t v = key.v[i];
    const char kind = i < num_kinds ? kinds[i] : 'i';
    if (i == key.n - 1) {
      s += std::to_string(uint64_t(v)) + "u"; // DIV16 is an unsigned long long parameter
    } else if (kind == 'i') {
      s += std::to_string(v);
    } else if (kind == 'b') {
      s += v ? "true" : "false";
    } else if (kind == 't') {
      const char *t = type_name_for_id(v);
      if (!t)
        throw Error(std::string("tilec: kernel ") + name + ": unknown type id " +
                    std::to_string(v) + " for template argument " + std::to_string(i));
      s += t;
    } else {
      throw Error(std::string("tilec: kernel ") + name + ": unknown template kind '" + kind +
                  "' (expected i, b or t)");
    }
  }
  return s + ">";
}

std::string normalize_name_expression(std::string_view expr) {
  std::string out;
  bool pending_space = false;
  for (char c : expr) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      pending_space = true;
      continue;
    }
    if (pending_space && !out.empty() && is_ident(out.back()) && is_ident(c))
      out += ' ';
    pending_space = false;
    out += c;
  }
  return out;
}

bool split_div16(const std::string &normalized, std::string &prefix, uint64_t &mask) {
  if (normalized.size() < 3 || normalized.back() != '>')
    return false;
  size_t start = normalized.find_last_of(",<", normalized.size() - 2);
  if (start == std::string::npos)
    return false;
  std::string last = normalized.substr(start + 1, normalized.size() - start - 2);
  while (!last.empty() && (last.back() == 'u' || last.back() == 'U'))
    last.pop_back();
  if (last.empty() || last.find_first_not_of("0123456789") != std::string::npos)
    return false;
  if (last.size() > 20)
    return false;
  errno = 0;
  mask = std::strtoull(last.c_str(), nullptr, 10);
  if (errno == ERANGE)
    return false;
  prefix = normalized.substr(0, start + 1);
  return true;
}

} // namespace tilec::detail
