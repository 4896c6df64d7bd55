// NVRTC compiles for explicit architectures (no GPU needed) and reports failures with the
// log and a source path the user can open.
#include "embedded_templates.h"
#include "nvrtc_compiler.h"
#include "spec_compiler.h"
#include "test_env.h"

#include <tilec/runtime.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using tilec::detail::compile_with_nvrtc;
using tilec::detail::CompileJob;

namespace {

bool is_elf(const std::string &image) {
  return image.size() > 4 && image.compare(0, 4,
                                           "\x7f"
                                           "ELF") == 0;
}

// Uses an sm_90a-only instruction, so it checks that the arch-specific target is used.
const char *const kSetmaxnregSource = R"cuda(
template <int BLOCK, int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void __launch_bounds__(BLOCK) producer_kernel(int* out) {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
  out[threadIdx.x] = DIV16;
}
)cuda";

std::string error_of(const CompileJob &job, const std::string &failed_path) {
  try {
    compile_with_nvrtc(job, failed_path);
  } catch (const tilec::Error &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(NvrtcCompile, CompilesToCubinForSm80) {
  tilec_test::ScopedCacheDir dir;
  auto k = compile_with_nvrtc(tilec_test::scale_job("sm_80"), dir.path() + "/failed/x.cu");
  EXPECT_TRUE(is_elf(k.cubin));
  EXPECT_EQ(k.lowered_name.rfind("_Z", 0), 0u) << k.lowered_name;
  EXPECT_NE(k.lowered_name.find("scale_kernel"), std::string::npos);
}

TEST(NvrtcCompile, CompilesToCubinForSm90a) {
  tilec_test::ScopedCacheDir dir;
  auto k = compile_with_nvrtc(tilec_test::scale_job("sm_90a"), dir.path() + "/failed/x.cu");
  EXPECT_TRUE(is_elf(k.cubin));
}

// Kernels are compiled with line info: a source translated with --line-directives carries
// #line back to the kernel's .cpp, and the cubin's line table names that file (what Nsight
// Compute's source view and `nvdisasm --print-line-info` read).
TEST(NvrtcCompile, LineInfoNamesTheKernelsOwnSourceFile) {
  tilec_test::ScopedCacheDir dir;
  CompileJob job = tilec_test::scale_job("sm_90a");
  job.source = "#line 7 \"my_scale_kernels.cpp\"\n" + job.source;
  auto k = compile_with_nvrtc(job, dir.path() + "/failed/x.cu");
  ASSERT_TRUE(is_elf(k.cubin));
  EXPECT_NE(k.cubin.find("my_scale_kernels.cpp"), std::string::npos)
      << "no line table naming the #line file in the cubin";
}

TEST(NvrtcCompile, ArchSpecificInstructionsNeedSm90a) {
  tilec_test::ScopedCacheDir dir;
  CompileJob job = tilec_test::scale_job("sm_90a");
  job.source = kSetmaxnregSource;
  job.name_expression = "producer_kernel<128, 4, 1, 0u>";
  auto k = compile_with_nvrtc(job, dir.path() + "/failed/x.cu");
  EXPECT_TRUE(is_elf(k.cubin));
  job.arch = "sm_80";
  EXPECT_NE(error_of(job, dir.path() + "/failed/y.cu"), "");
}

TEST(NvrtcCompile, FlagsCarryArchLineInfoAndCudaIncludes) {
  auto flags = tilec::detail::compile_flags(tilec_test::scale_job("sm_90a"));
  ASSERT_GE(flags.size(), 4u);
  EXPECT_EQ(flags[0], "--gpu-architecture=sm_90a");
  EXPECT_EQ(flags[1], "-lineinfo");
  EXPECT_EQ(flags[2], "-I" + tilec::detail::cuda_include_dir());
  EXPECT_EQ(flags[3], "-I" + tilec::detail::cuda_include_dir() + "/cccl");
}

TEST(NvrtcCompile, CudaIncludeDirCanBeOverridden) {
  std::string before = tilec::detail::cuda_include_dir();
  setenv("TILEC_CUDA_INCLUDE_DIR", "/opt/other-cuda/include", 1);
  EXPECT_EQ(tilec::detail::cuda_include_dir(), "/opt/other-cuda/include");
  unsetenv("TILEC_CUDA_INCLUDE_DIR");
  EXPECT_EQ(tilec::detail::cuda_include_dir(), before);
}

TEST(NvrtcCompile, SeesCudaHeadersAndExtraHeaders) {
  tilec_test::ScopedCacheDir dir;
  CompileJob job = tilec_test::scale_job("sm_80");
  job.extra_headers = {{"test/twice.cuh", "__device__ inline __half twice(__half v) { return "
                                          "__hadd(v, v); }\n"}};
  job.source = R"cuda(#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <test/twice.cuh>
template <int BLOCK, int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void half_kernel(__half* x) { x[threadIdx.x] = twice(x[threadIdx.x]); }
)cuda";
  job.name_expression = "half_kernel<32, 1, 1, 0u>";
  EXPECT_TRUE(is_elf(compile_with_nvrtc(job, dir.path() + "/failed/x.cu").cubin));
}

TEST(NvrtcCompile, EmbeddedTemplatesAreListedByIncludeName) {
  size_t count = 0;
  const tilec::detail::EmbeddedFile *files = tilec::detail::embedded_templates(&count);
  ASSERT_NE(files, nullptr);
  for (size_t i = 0; i < count; ++i) {
    EXPECT_NE(files[i].name[0], '/') << files[i].name << " should be relative to templates/";
    EXPECT_EQ(std::char_traits<char>::length(files[i].text), files[i].size) << files[i].name;
  }
  if (fs::exists(fs::path(TILEC_TEST_TEMPLATES_DIR) / "tilec/device.cuh")) {
    bool found = false;
    for (size_t i = 0; i < count; ++i)
      found |= std::string(files[i].name) == "tilec/device.cuh";
    EXPECT_TRUE(found);
  }
}

// The device library's layers include downwards only: common/ runs on every supported GPU and
// includes nothing architecture-specific; sm80/ may use common/; sm90/ may use both.
TEST(NvrtcCompile, DeviceLibraryLayersIncludeDownwards) {
  size_t count = 0;
  const tilec::detail::EmbeddedFile *files = tilec::detail::embedded_templates(&count);
  const std::string device = "tilec/device/";
  int common = 0, sm80 = 0, sm90 = 0;
  for (size_t i = 0; i < count; ++i) {
    std::string name = files[i].name, text = files[i].text;
    if (name.rfind(device, 0) != 0)
      continue;
    std::string layer = name.substr(device.size(), name.find('/', device.size()) - device.size());
    std::vector<std::string> banned;
    if (layer == "common")
      ++common, banned = {"<tilec/device/sm80/", "<tilec/device/sm90/", "<tilec/device/dot.cuh>"};
    else if (layer == "sm80")
      ++sm80, banned = {"<tilec/device/sm90/", "<tilec/device/dot.cuh>"};
    else if (layer == "sm90")
      ++sm90, banned = {"<tilec/device/dot.cuh>"};
    for (const std::string &b : banned)
      EXPECT_EQ(text.find("#include " + b), std::string::npos) << name << " includes " << b;
  }
  EXPECT_GT(common, 0);
  EXPECT_GT(sm80, 0);
  EXPECT_GT(sm90, 0);
}

TEST(NvrtcCompile, ErrorHasLogSpecializationAndSavedSource) {
  tilec_test::ScopedCacheDir dir;
  CompileJob job = tilec_test::scale_job("sm_80");
  job.source = "template <int BLOCK, int NUM_WARPS, int NUM_STAGES, unsigned DIV16>\n"
               "__global__ void scale_kernel(float* x) { x[0] = undeclared_thing; }\n";
  std::string failed = dir.path() + "/failed/abc.cu";
  std::string msg = error_of(job, failed);
  ASSERT_NE(msg, "");
  EXPECT_NE(msg.find("scale_kernel<128, 4, 3, 3u>"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sm_80"), std::string::npos) << msg;
  EXPECT_NE(msg.find("undeclared_thing"), std::string::npos) << msg; // the NVRTC log
  EXPECT_NE(msg.find(failed), std::string::npos) << msg;
  std::ifstream saved(failed);
  ASSERT_TRUE(saved.good()) << "the failing source must be saved at " << failed;
  std::string text((std::istreambuf_iterator<char>(saved)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, job.source);
}

TEST(NvrtcCompile, ErrorNamesAnExistingSourceFile) {
  tilec_test::ScopedCacheDir dir;
  CompileJob job = tilec_test::scale_job("sm_80");
  job.source = "__global__ void broken( {}\n";
  job.source_path = dir.path() + "/broken.cu";
  std::ofstream(job.source_path) << job.source;
  std::string msg = error_of(job, dir.path() + "/failed/never.cu");
  EXPECT_NE(msg.find(job.source_path), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dir.path() + "/failed/never.cu"));
}

TEST(NvrtcCompile, ErrorThroughTheCacheSavesUnderCacheDir) {
  tilec_test::ScopedCacheDir dir;
  CompileJob job = tilec_test::scale_job("sm_80");
  job.source = "__global__ void broken( {}\n";
  std::string msg;
  try {
    tilec::detail::compile_cached(job, tilec::cache_dir());
  } catch (const tilec::Error &e) {
    msg = e.what();
  }
  std::string expected = dir.path() + "/failed/" + tilec::detail::spec_cache_key(job).hex() + ".cu";
  EXPECT_NE(msg.find(expected), std::string::npos) << msg;
  EXPECT_TRUE(fs::exists(expected));
}

TEST(NvrtcCompile, UnknownNameExpressionIsAnError) {
  tilec_test::ScopedCacheDir dir;
  CompileJob job = tilec_test::scale_job("sm_80");
  job.name_expression = "no_such_kernel<1>";
  EXPECT_THROW(compile_with_nvrtc(job, dir.path() + "/failed/x.cu"), tilec::Error);
}

// NVRTC resolves in-memory headers by their exact include name only: a template that
// includes a sibling as "device/x.cuh" (relative) fails here but would pass under nvcc -I.
// So every embedded header must compile on its own, included by its full name.
TEST(NvrtcCompile, EveryEmbeddedTemplateCompilesAlone) {
  tilec_test::ScopedCacheDir dir;
  size_t count = 0;
  const tilec::detail::EmbeddedFile *files = tilec::detail::embedded_templates(&count);
  int checked = 0;
  for (size_t i = 0; i < count; ++i) {
    std::string name = files[i].name;
    std::string ext = fs::path(name).extension().string();
    if (ext != ".cuh" && ext != ".h" && ext != ".hpp")
      continue;
    CompileJob job = tilec_test::scale_job("sm_90a");
    job.source = "#include <" + name +
                 ">\n"
                 "template <int N> __global__ void tilec_include_probe() {}\n";
    job.name_expression = "tilec_include_probe<0>";
    EXPECT_NO_THROW({
      try {
        compile_with_nvrtc(job, dir.path() + "/failed/probe.cu");
      } catch (const tilec::Error &e) {
        ADD_FAILURE() << name << " does not compile alone under NVRTC:\n" << e.what();
      }
    });
    ++checked;
  }
  std::cout << checked << " embedded template headers checked\n";
}
