// spec_compiler.h - one specialization from source to cubin through the disk cache:
// look up the entry, else compile with NVRTC and store the result.
#pragma once

#include "hash.h"
#include "nvrtc_compiler.h"

#include <string>

namespace tilec::detail {

/// Hash of everything that determines the cubin: source text, name expression, compile
/// flags, embedded and extra headers, NVRTC version, arch, the tilec version and the cache
/// format version.
Hash128 spec_cache_key(const CompileJob &job);

/// The cubin for `job`, from `cache_dir`'s disk cache when a valid entry exists, else
/// compiled (and stored). Counts disk hits, rejected entries and NVRTC compiles.
CompiledKernel compile_cached(const CompileJob &job, const std::string &cache_dir);

} // namespace tilec::detail
