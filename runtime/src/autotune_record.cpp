#include "autotune_record.h"

#include "cache_trust.h"
#include "disk_cache.h"
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
  return kHeader + std::to_string(kTuneRecordVersion) + "\nrelease " + r.release + "\nsource " +
         r.source.hex() + "\nkernel " + r.kernel + "\nkey " + r.key + "\nchoice " + r.choice +
         "\nms " + ms + "\n";
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
  std::string version, source, ms, check;
  TuneRecord r;
  if (!take_line(text, pos, "tilec autotune", version) ||
      version != std::to_string(kTuneRecordVersion) ||
      !take_line(text, pos, "release", r.release) || !take_line(text, pos, "source", source) ||
      !take_line(text, pos, "kernel", r.kernel) || !take_line(text, pos, "key", r.key) ||
      !take_line(text, pos, "choice", r.choice) || !take_line(text, pos, "ms", ms))
    return false;
  const size_t body_end = pos;
  if (!take_line(text, pos, "check", check) || pos != text.size())
    return false;
  if (check != hash_bytes(text.data(), body_end).hex())
    return false;
  if (source.size() != 32 || source.find_first_not_of("0123456789abcdef") != std::string::npos)
    return false;
  r.source = {std::stoull(source.substr(0, 16), nullptr, 16),
              std::stoull(source.substr(16), nullptr, 16)};
  char *end = nullptr;
  r.ms = std::strtod(ms.c_str(), &end);
  if (ms.empty() || *end != '\0' || !(r.ms >= 0))
    return false;
  out = r;
  return true;
}

RecordLookup load_tune_record(const std::string &dir, const Hash128 &key, const Hash128 &source,
                              TuneRecord &out) {
  std::string text;
  switch (read_trusted_file(tune_record_path(dir, key), text)) {
  case TrustedRead::Missing:
    return RecordLookup::Miss;
  case TrustedRead::Refused:
    return RecordLookup::Rejected;
  case TrustedRead::Ok:
    break;
  }
  TuneRecord r;
  // A well-formed record of another release or source was timed on other code.
  if (!parse_tune_record(text, r) || r.release != tilec_version() || r.source != source)
    return RecordLookup::Rejected;
  out = r;
  return RecordLookup::Hit;
}

bool store_tune_record(const std::string &dir, const Hash128 &key, const TuneRecord &r) {
  if (!single_line(r.kernel) || !single_line(r.key) || !single_line(r.choice) ||
      !single_line(r.release))
    return false;
  std::string why;
  return make_private_dirs(dir, why) &&
         write_file_atomically(tune_record_path(dir, key), serialize_tune_record(r));
}

} // namespace tilec::detail
