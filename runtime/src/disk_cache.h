// disk_cache.h - compiled specializations on disk, one file per cache key.
//
// An entry is a fixed header (magic, format version, key, payload size, payload checksum)
// followed by the payload (lowered kernel name + cubin). Anything that does not check out
// is reported as Rejected and never used; the caller recompiles and overwrites it.
// An unusable cache folder degrades to memory-only caching with one warning on stderr.
#pragma once

#include "hash.h"
#include "nvrtc_compiler.h"

#include <cstdint>
#include <string>

namespace tilec::detail {

/// Bumped whenever the entry layout or the compile pipeline changes meaning; part of the
/// cache key too, so old entries are simply never looked up.
inline constexpr uint32_t kCacheFormatVersion = 1;

enum class CacheLookup { Miss, Hit, Rejected };

/// `<dir>/<key hex>.tilec`.
std::string cache_entry_path(const std::string &dir, const Hash128 &key);

/// Where the source of a failed compile is written: `<dir>/failed/<key hex>.cu`.
std::string failed_source_path(const std::string &dir, const Hash128 &key);

/// Loads the entry for `key` from `dir` into `out`.
CacheLookup cache_load(const std::string &dir, const Hash128 &key, CompiledKernel &out);

/// Stores atomically; returns false (after warning once per folder) if the folder cannot
/// be created or written. Never throws for file system reasons.
bool cache_store(const std::string &dir, const Hash128 &key, const CompiledKernel &entry);

/// The serialized entry (exposed for tests that corrupt it on purpose).
std::string serialize_entry(const Hash128 &key, const CompiledKernel &entry);

} // namespace tilec::detail
