#include "test_env.h"

#include <cstdlib>
#include <filesystem>
#include <random>

namespace fs = std::filesystem;

namespace tilec_test {

ScopedCacheDir::ScopedCacheDir() {
  std::random_device rd;
  path_ =
      (fs::temp_directory_path() / ("tilec-test-" + std::to_string(rd()) + std::to_string(rd())))
          .string();
  fs::create_directories(path_);
  if (const char *old = std::getenv("TILEC_CACHE_DIR")) {
    had_old_ = true;
    old_value_ = old;
  }
  setenv("TILEC_CACHE_DIR", path_.c_str(), 1);
}

ScopedCacheDir::~ScopedCacheDir() {
  if (had_old_)
    setenv("TILEC_CACHE_DIR", old_value_.c_str(), 1);
  else
    unsetenv("TILEC_CACHE_DIR");
  std::error_code ec;
  fs::remove_all(path_, ec);
}

const char *const kScaleSource = R"cuda(
template <int BLOCK, int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void scale_kernel(const float* x, float* out, float factor, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n)
    out[i] = x[i] * factor;
}
)cuda";

tilec::detail::CompileJob scale_job(const std::string &arch) {
  tilec::detail::CompileJob job;
  job.source = kScaleSource;
  job.source_path = "scale.cu"; // not a file: errors must point at a saved copy
  job.name_expression = "scale_kernel<128, 4, 3, 3u>";
  job.arch = arch;
  return job;
}

std::string list_files(const std::string &dir) {
  std::string names;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file())
      names += e.path().filename().string() + " ";
  return names;
}

} // namespace tilec_test
