// test_env.h - helpers shared by the runtime tests: a fresh cache folder per test and a
// tiny CUDA source that needs no device library.
#pragma once

#include "nvrtc_compiler.h"

#include <string>

namespace tilec_test {

/// Creates an empty folder under the system temp dir, points TILEC_CACHE_DIR at it and
/// removes it (restoring the variable) when destroyed.
class ScopedCacheDir {
public:
  ScopedCacheDir();
  ~ScopedCacheDir();
  const std::string &path() const { return path_; }

private:
  std::string path_;
  std::string old_value_;
  bool had_old_ = false;
};

/// A scale kernel with the generated-code signature
/// template <int BLOCK, int NUM_WARPS, int NUM_STAGES, unsigned DIV16>.
extern const char *const kScaleSource;

/// A compile job for kScaleSource<BLOCK=128, 4, 3, DIV16=3u> for `arch`.
tilec::detail::CompileJob scale_job(const std::string &arch);

/// Names of the regular files in `dir` (not recursive).
std::string list_files(const std::string &dir);

} // namespace tilec_test
