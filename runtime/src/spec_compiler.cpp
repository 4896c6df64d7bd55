#include "spec_compiler.h"

#include "disk_cache.h"
#include "entry_lock.h"
#include "embedded_templates.h"
#include "ptx_link.h"
#include "stats.h"

namespace tilec::detail {
namespace {

// The embedded templates never change while the process runs: hash them once.
const Hash128 &templates_hash() {
  static const Hash128 h = [] {
    Hasher hasher;
    size_t count = 0;
    const EmbeddedFile *files = embedded_templates(&count);
    for (size_t i = 0; i < count; ++i)
      hasher.feed(files[i].name).feed(files[i].text, files[i].size);
    return hasher.finish();
  }();
  return h;
}

} // namespace

Hash128 spec_cache_key(const CompileJob &job) {
  static const std::string version = nvrtc_version() + "\n" + ptxas_identity();
  Hasher h;
  h.feed_u64(kCacheFormatVersion).feed(tilec_version()).feed(version).feed(job.arch);
  h.feed(job.source).feed(job.name_expression);
  for (const auto &flag : compile_flags(job))
    h.feed(flag);
  const Hash128 &t = templates_hash();
  h.feed_u64(t.hi).feed_u64(t.lo);
  for (const auto &[name, text] : job.extra_headers)
    h.feed(name).feed(text);
  return h.finish();
}

CompiledKernel compile_cached(const CompileJob &job, const std::string &cache_dir) {
  Hash128 key = spec_cache_key(job);
  const EntryOrigin origin = entry_origin(job.source);
  CompiledKernel out;
  const CacheLookup first = cache_load(cache_dir, key, origin, out);
  if (first == CacheLookup::Hit) {
    bump(counters().disk_hits);
    return out;
  }
  if (first == CacheLookup::Rejected)
    bump(counters().disk_rejected); // recompiled below; the store overwrites the bad entry
  // Compile under the entry's lock, so that processes (or threads) missing the same entry at
  // once compile it once: whoever waited looks again first. A rejected entry is not looked
  // at twice (its warning has been printed once).
  EntryLock lock(cache_dir, key);
  if (first == CacheLookup::Miss && lock.held() &&
      cache_load(cache_dir, key, origin, out) == CacheLookup::Hit) {
    bump(counters().disk_hits);
    return out;
  }
  out = compile_with_nvrtc(job, failed_source_path(cache_dir, key));
  bump(counters().nvrtc_compiles);
  cache_store(cache_dir, key, origin, out);
  return out;
}

} // namespace tilec::detail
