// tilec::Config, and the text of tuning keys (for messages and the disk records).
#include "autotune_internal.h"
#include "name_expression.h"

#include <cinttypes>
#include <cstdio>

namespace tilec {

Config::Config(std::initializer_list<std::pair<const char *, int64_t>> values, int warps,
               int stages)
    : num_warps(warps), num_stages(stages) {
  for (const auto &[name, value] : values)
    set(name, value);
}

void Config::set(const char *name, int64_t value) {
  if (int i = find(name); i >= 0) {
    values_[i] = value;
    return;
  }
  if (n_ == kMax)
    throw Error(std::string("tilec: a config holds at most ") + std::to_string(kMax) +
                " values; cannot add " + name);
  names_[n_] = name;
  values_[n_++] = value;
}

int64_t Config::get(const char *name) const {
  int i = find(name);
  if (i < 0)
    throw Error(std::string("tilec: the config (") + str() + ") has no value for " + name);
  return values_[i];
}

std::string Config::str() const {
  std::string s;
  for (int i = 0; i < n_; ++i)
    s += std::string(names_[i]) + "=" + std::to_string(values_[i]) + ", ";
  return s + "num_warps=" + std::to_string(num_warps) +
         ", num_stages=" + std::to_string(num_stages);
}

namespace detail {

std::string describe_tuning_key(const TuningSpec &spec, const SpecKey &key) {
  std::string s;
  for (int i = 0; i < key.n; ++i) {
    if (i)
      s += ", ";
    const char kind = i < int(spec.key_kinds.size()) ? spec.key_kinds[size_t(i)] : 'i';
    if (i < int(spec.key_names.size()))
      s += std::string(spec.key_names[size_t(i)]) + "=";
    const int64_t v = key.v[i];
    char buf[64];
    if (kind == 't') {
      const char *t = type_name_for_id(v);
      s += t ? t : "type#" + std::to_string(v);
    } else if (kind == 'b') {
      s += v ? "true" : "false";
    } else if (kind == 'f') {
      double d;
      std::memcpy(&d, &v, sizeof d);
      std::snprintf(buf, sizeof buf, "%.17g", d);
      s += buf;
    } else if (kind == 'm') {
      std::snprintf(buf, sizeof buf, "0x%" PRIx64, uint64_t(uint32_t(v)));
      s += buf;
    } else {
      s += std::to_string(v);
    }
  }
  return s;
}

size_t SpecKeyHash::operator()(const SpecKey &k) const {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ uint64_t(k.n);
  for (int i = 0; i < k.n; ++i)
    h = (h ^ uint64_t(k.v[i])) * 0x100000001b3ull;
  return size_t(h ^ (h >> 29));
}

} // namespace detail
} // namespace tilec
