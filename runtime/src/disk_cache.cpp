#include "disk_cache.h"

#include "cache_trust.h"
#include "file_util.h"

#include <tilec/runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>

#ifndef TILEC_VERSION
#error "TILEC_VERSION must be defined by the build (the project version)"
#endif

namespace tilec {

std::string cache_dir() {
  if (const char *env = std::getenv("TILEC_CACHE_DIR"); env && *env)
    return env;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/tilec";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/tilec";
  return (std::filesystem::temp_directory_path() / "tilec-cache").string();
}

} // namespace tilec

namespace tilec::detail {
namespace {

constexpr char kMagic[8] = {'T', 'I', 'L', 'E', 'C', 'C', 'B', '\0'};

// Fixed-size header; native byte order (entries are per machine anyway).
struct EntryHeader {
  char magic[8];
  uint32_t version;
  uint32_t header_size;
  uint64_t key_hi, key_lo;
  char tilec_version[16]; // NUL-padded
  uint64_t source_hi, source_lo;
  uint64_t payload_size;
  uint64_t checksum_hi, checksum_lo; // of the header before this field, then the payload
};
static_assert(sizeof(EntryHeader) == 88, "cache entry header layout");

Hash128 entry_checksum(const EntryHeader &h, const char *payload, size_t size) {
  return Hasher().feed(&h, offsetof(EntryHeader, checksum_hi)).feed(payload, size).finish();
}

void fill_version(char (&field)[16], const std::string &version) {
  std::memset(field, 0, sizeof field);
  std::memcpy(field, version.data(), std::min(version.size(), sizeof field - 1));
}

void put_u32(std::string &s, uint32_t x) { s.append(reinterpret_cast<const char *>(&x), 4); }

// Folders already found unusable, so the warning is printed once per folder.
std::mutex g_bad_dirs_mutex;
std::set<std::string> g_bad_dirs;

bool is_bad_dir(const std::string &dir) {
  std::lock_guard<std::mutex> lock(g_bad_dirs_mutex);
  return g_bad_dirs.count(dir) != 0;
}

void mark_bad_dir(const std::string &dir, const std::string &why) {
  std::lock_guard<std::mutex> lock(g_bad_dirs_mutex);
  if (g_bad_dirs.insert(dir).second)
    std::fprintf(stderr,
                 "tilec: warning: cannot write the kernel cache in '%s' (%s); compiled kernels "
                 "are kept in memory only (set TILEC_CACHE_DIR to change the folder)\n",
                 dir.c_str(), why.c_str());
}

} // namespace

const char *tilec_version() { return TILEC_VERSION; }

EntryOrigin entry_origin(const std::string &source) {
  return {tilec_version(), hash_bytes(source.data(), source.size())};
}

std::string cache_entry_path(const std::string &dir, const Hash128 &key) {
  return dir + "/" + key.hex() + ".tilec";
}

std::string failed_source_path(const std::string &dir, const Hash128 &key) {
  return dir + "/failed/" + key.hex() + ".cu";
}

std::string serialize_entry(const Hash128 &key, const EntryOrigin &origin,
                            const CompiledKernel &entry) {
  std::string payload;
  put_u32(payload, uint32_t(entry.lowered_name.size()));
  payload += entry.lowered_name;
  payload += entry.cubin;

  EntryHeader h;
  std::memset(&h, 0, sizeof h); // no uninitialized padding enters the checksum
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kCacheFormatVersion;
  h.header_size = sizeof(EntryHeader);
  h.key_hi = key.hi;
  h.key_lo = key.lo;
  fill_version(h.tilec_version, origin.tilec_version);
  h.source_hi = origin.source.hi;
  h.source_lo = origin.source.lo;
  h.payload_size = payload.size();
  Hash128 sum = entry_checksum(h, payload.data(), payload.size());
  h.checksum_hi = sum.hi;
  h.checksum_lo = sum.lo;
  std::string out(reinterpret_cast<const char *>(&h), sizeof h);
  out += payload;
  return out;
}

CacheLookup cache_load(const std::string &dir, const Hash128 &key, const EntryOrigin &origin,
                       CompiledKernel &out) {
  warn_if_shared(dir);
  std::string bytes;
  switch (read_trusted_file(cache_entry_path(dir, key), bytes)) {
  case TrustedRead::Missing:
    return CacheLookup::Miss;
  case TrustedRead::Refused:
    return CacheLookup::Rejected;
  case TrustedRead::Ok:
    break;
  }
  EntryHeader h;
  if (bytes.size() < sizeof h)
    return CacheLookup::Rejected;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.version != kCacheFormatVersion ||
      h.header_size != sizeof h || h.key_hi != key.hi || h.key_lo != key.lo ||
      h.payload_size != bytes.size() - sizeof h)
    return CacheLookup::Rejected;
  const char *payload = bytes.data() + sizeof h;
  if (entry_checksum(h, payload, h.payload_size) != Hash128{h.checksum_hi, h.checksum_lo})
    return CacheLookup::Rejected;
  // A well-formed entry made for another source or release (a stale or planted file whose
  // checksum matches its own contents) is not this kernel.
  char expected_version[16];
  fill_version(expected_version, origin.tilec_version);
  if (std::memcmp(h.tilec_version, expected_version, sizeof expected_version) != 0 ||
      Hash128{h.source_hi, h.source_lo} != origin.source)
    return CacheLookup::Rejected;
  uint32_t name_size = 0;
  if (h.payload_size < 4)
    return CacheLookup::Rejected;
  std::memcpy(&name_size, payload, 4);
  if (name_size == 0 || name_size > h.payload_size - 4)
    return CacheLookup::Rejected;
  out.lowered_name.assign(payload + 4, name_size);
  out.cubin.assign(payload + 4 + name_size, h.payload_size - 4 - name_size);
  if (out.cubin.empty())
    return CacheLookup::Rejected;
  return CacheLookup::Hit;
}

bool cache_store(const std::string &dir, const Hash128 &key, const EntryOrigin &origin,
                 const CompiledKernel &entry) {
  if (is_bad_dir(dir))
    return false;
  std::string why;
  if (!make_private_dirs(dir, why)) {
    mark_bad_dir(dir, why);
    return false;
  }
  if (!write_file_atomically(cache_entry_path(dir, key), serialize_entry(key, origin, entry))) {
    mark_bad_dir(dir, std::strerror(errno));
    return false;
  }
  return true;
}

} // namespace tilec::detail
