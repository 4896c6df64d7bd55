#include "disk_cache.h"

#include "file_util.h"

#include <tilec/runtime.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>

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
  uint64_t payload_size;
  uint64_t checksum_hi, checksum_lo;
};
static_assert(sizeof(EntryHeader) == 56, "cache entry header layout");

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

std::string cache_entry_path(const std::string &dir, const Hash128 &key) {
  return dir + "/" + key.hex() + ".tilec";
}

std::string failed_source_path(const std::string &dir, const Hash128 &key) {
  return dir + "/failed/" + key.hex() + ".cu";
}

std::string serialize_entry(const Hash128 &key, const CompiledKernel &entry) {
  std::string payload;
  put_u32(payload, uint32_t(entry.lowered_name.size()));
  payload += entry.lowered_name;
  payload += entry.cubin;
  Hash128 sum = hash_bytes(payload.data(), payload.size());

  EntryHeader h;
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kCacheFormatVersion;
  h.header_size = sizeof(EntryHeader);
  h.key_hi = key.hi;
  h.key_lo = key.lo;
  h.payload_size = payload.size();
  h.checksum_hi = sum.hi;
  h.checksum_lo = sum.lo;
  std::string out(reinterpret_cast<const char *>(&h), sizeof h);
  out += payload;
  return out;
}

CacheLookup cache_load(const std::string &dir, const Hash128 &key, CompiledKernel &out) {
  std::string bytes;
  if (!read_file(cache_entry_path(dir, key), bytes))
    return CacheLookup::Miss;
  EntryHeader h;
  if (bytes.size() < sizeof h)
    return CacheLookup::Rejected;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.version != kCacheFormatVersion ||
      h.header_size != sizeof h || h.key_hi != key.hi || h.key_lo != key.lo ||
      h.payload_size != bytes.size() - sizeof h)
    return CacheLookup::Rejected;
  const char *payload = bytes.data() + sizeof h;
  if (hash_bytes(payload, h.payload_size) != Hash128{h.checksum_hi, h.checksum_lo})
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

bool cache_store(const std::string &dir, const Hash128 &key, const CompiledKernel &entry) {
  if (is_bad_dir(dir))
    return false;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    mark_bad_dir(dir, ec.message());
    return false;
  }
  if (!write_file_atomically(cache_entry_path(dir, key), serialize_entry(key, entry))) {
    mark_bad_dir(dir, std::strerror(errno));
    return false;
  }
  return true;
}

} // namespace tilec::detail
