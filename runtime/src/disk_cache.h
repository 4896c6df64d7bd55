// disk_cache.h - compiled specializations on disk, one file per cache key.
//
// An entry is a fixed header (magic, format version, key, the tilec version and the hash of
// the source it was compiled from, payload size, checksum of header and payload) followed by
// the payload (lowered kernel name + cubin). Anything that does not check out, including a
// well-formed entry for another source or tilec version, and any file another user could
// have written (cache_trust.h), is reported as Rejected and never used; the caller
// recompiles and overwrites it. Folders the cache creates are 0700. An unusable cache
// folder degrades to memory-only caching with one warning on stderr.
#pragma once

#include "hash.h"
#include "nvrtc_compiler.h"

#include <cstdint>
#include <string>

namespace tilec::detail {

/// Bumped whenever the entry layout or the compile pipeline changes meaning; part of the
/// cache key too, so old entries are simply never looked up.
inline constexpr uint32_t kCacheFormatVersion = 2;

/// The tilec release this runtime belongs to (the project version); entries and autotuning
/// records written by another release are refused.
const char *tilec_version();

/// What an entry was compiled from; cache_load refuses an entry whose origin differs.
struct EntryOrigin {
  std::string tilec_version; ///< at most 15 characters are stored
  Hash128 source;            ///< hash of the CUDA source text
};

/// This release and the hash of `source`.
EntryOrigin entry_origin(const std::string &source);

enum class CacheLookup { Miss, Hit, Rejected };

/// `<dir>/<key hex>.tilec`.
std::string cache_entry_path(const std::string &dir, const Hash128 &key);

/// Where the source of a failed compile is written: `<dir>/failed/<key hex>.cu`.
std::string failed_source_path(const std::string &dir, const Hash128 &key);

/// Loads the entry for `key` from `dir` into `out`.
CacheLookup cache_load(const std::string &dir, const Hash128 &key, const EntryOrigin &origin,
                       CompiledKernel &out);

/// Stores atomically; returns false (after warning once per folder) if the folder cannot
/// be created or written. Never throws for file system reasons.
bool cache_store(const std::string &dir, const Hash128 &key, const EntryOrigin &origin,
                 const CompiledKernel &entry);

/// The serialized entry (exposed for tests that corrupt it on purpose).
std::string serialize_entry(const Hash128 &key, const EntryOrigin &origin,
                            const CompiledKernel &entry);

} // namespace tilec::detail
