// The device library's templates, instantiated (instantiate.cu), compile under NVRTC for
// sm_80 and sm_90a, with the embedded headers the runtime gives every kernel. Compiling to
// sm_XX runs ptxas, so the inline PTX (atomics with .sem/.scope) is checked too.
#include "nvrtc_compiler.h"

#include <tilec/runtime.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

std::string read_text(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void compile_for(const std::string &arch) {
  tilec::detail::CompileJob job;
  job.source = read_text(TILEC_TEST_INSTANTIATE_SOURCE);
  ASSERT_FALSE(job.source.empty()) << "cannot read " << TILEC_TEST_INSTANTIATE_SOURCE;
  // Non-template kernels are always compiled; NVRTC needs one name expression to look up.
  job.source += "\ntemplate <int N> __global__ void tilec_instantiate_probe() {}\n";
  job.source_path = TILEC_TEST_INSTANTIATE_SOURCE;
  job.name_expression = "tilec_instantiate_probe<0>";
  job.arch = arch;
  std::string failed = (std::filesystem::temp_directory_path() / "tilec-instantiate-failed.cu");
  try {
    tilec::detail::CompiledKernel k = tilec::detail::compile_with_nvrtc(job, failed);
    EXPECT_EQ(k.cubin.compare(0, 4,
                              "\x7f"
                              "ELF"),
              0);
  } catch (const tilec::Error &e) {
    ADD_FAILURE() << "the device library does not compile under NVRTC for " << arch << ":\n"
                  << e.what();
  }
}

} // namespace

TEST(NvrtcInstantiate, Sm80) { compile_for("sm_80"); }
TEST(NvrtcInstantiate, Sm90a) { compile_for("sm_90a"); }
