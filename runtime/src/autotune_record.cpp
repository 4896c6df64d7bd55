#include "autotune_record.h"

#include "file_util.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace tilec::detail {
namespace {

const char kHeader[] = "tilec autotune ";

/// Reads "<field> <rest of line>\n" at `pos`; false unless the line starts with the field.
bool take_line(const std::string &text, size_t &pos, const char *field, std::string &value) {
  const std::string prefix = std::string(field) + " ";
  size_t end = text.find('\n', pos);
  if (end == std::string::npos || text.compare(pos, prefix.size(), prefix) != 0)
    return false;
  value = text.substr(pos + prefix.size(), end - pos - prefix.size());
  pos = end + 1;
  return true;
}

bool single_line(const std::string &s) { return s.find('\n') == std::string::npos; }

std::string body_of(const TuneRecord &r) {
  char ms[64];
  std::snprintf(ms, sizeof ms, "%.6g", r.ms);
  return kHeader + std::to_string(kTuneRecordVersion) + "\nkernel " + r.kernel + "\nkey " + r.key +
         "\nchoice " + r.choice + "\nms " + ms + "\n";
}

} // namespace

std::string tune_record_path(const std::string &dir, const Hash128 &key) {
  return dir + "/" + key.hex() + ".autotune";
}

std::string serialize_tune_record(const TuneRecord &r) {
  std::string body = body_of(r);
  return body + "check " + hash_bytes(body.data(), body.size()).hex() + "\n";
}

bool parse_tune_record(const std::string &text, TuneRecord &out) {
  size_t pos = 0;
  std::string version, ms, check;
  TuneRecord r;
  if (!take_line(text, pos, "tilec autotune", version) ||
      version != std::to_string(kTuneRecordVersion) || !take_line(text, pos, "kernel", r.kernel) ||
      !take_line(text, pos, "key", r.key) || !take_line(text, pos, "choice", r.choice) ||
      !take_line(text, pos, "ms", ms))
    return false;
  const size_t body_end = pos;
  if (!take_line(text, pos, "check", check) || pos != text.size())
    return false;
  if (check != hash_bytes(text.data(), body_end).hex())
    return false;
  char *end = nullptr;
  r.ms = std::strtod(ms.c_str(), &end);
  if (ms.empty() || *end != '\0' || !(r.ms >= 0))
    return false;
  out = r;
  return true;
}

RecordLookup load_tune_record(const std::string &dir, const Hash128 &key, TuneRecord &out) {
  std::string text;
  if (!read_file(tune_record_path(dir, key), text))
    return RecordLookup::Miss;
  return parse_tune_record(text, out) ? RecordLookup::Hit : RecordLookup::Rejected;
}

bool store_tune_record(const std::string &dir, const Hash128 &key, const TuneRecord &r) {
  if (!single_line(r.kernel) || !single_line(r.key) || !single_line(r.choice))
    return false;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return !ec && write_file_atomically(tune_record_path(dir, key), serialize_tune_record(r));
}

} // namespace tilec::detail
