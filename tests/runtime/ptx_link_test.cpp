// The last step of a runtime compile (ptx_link.h): the exact-block-size rewrite of NVRTC's
// PTX, and the toolkit's ptxas assembling it (no GPU needed).
#include "nvrtc_compiler.h"
#include "ptx_link.h"
#include "test_env.h"

#include <tilec/runtime.h>

#include <gtest/gtest.h>

#include <string>

using tilec::detail::assemble_ptx;
using tilec::detail::exact_block_sizes;
using tilec::detail::ptxas_path;

namespace {

bool is_elf(const std::string &image) {
  return image.size() > 4 && image.compare(0, 4, "\x7f"
                                                  "ELF") == 0;
}

// What NVRTC writes for a kernel with __launch_bounds__(512): the directive on its own line.
const char *const kEntryPtx = R"ptx(//
// .maxntid in a comment is not a directive
.version 9.0
.target sm_90a
.address_size 64

.visible .entry k(
	.param .u64 k_param_0
)
.maxntid 512, 1, 1
.maxnreg 64
{
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	st.global.u32 	[%rd2], 7;
	ret;
}
)ptx";

} // namespace

TEST(PtxLink, MaxntidDirectivesBecomeReqntid) {
  std::string out = exact_block_sizes(kEntryPtx);
  EXPECT_NE(out.find("\n.reqntid 512, 1, 1\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("\n.maxntid"), std::string::npos) << out;
  // Only directives: the comment and the other directives are left as they are.
  EXPECT_NE(out.find("// .maxntid in a comment"), std::string::npos) << out;
  EXPECT_NE(out.find("\n.maxnreg 64\n"), std::string::npos) << out;
  EXPECT_EQ(out.size(), std::string(kEntryPtx).size());
  // Indented directives and several entries.
  EXPECT_EQ(exact_block_sizes("a\n\t.maxntid 128\nb\n  .maxntid 64, 2\n"),
            "a\n\t.reqntid 128\nb\n  .reqntid 64, 2\n");
  EXPECT_EQ(exact_block_sizes(".maxntidx 1\n"), ".maxntidx 1\n");
  EXPECT_EQ(exact_block_sizes(""), "");
}

TEST(PtxLink, AssemblesPtxIntoACubin) {
  const std::string ptxas = ptxas_path();
  if (ptxas.empty())
    GTEST_SKIP() << "no ptxas beside the CUDA headers";
  EXPECT_NE(tilec::detail::ptxas_identity().find("ptxas"), std::string::npos)
      << tilec::detail::ptxas_identity();
  std::string exact, bounded, why;
  ASSERT_TRUE(assemble_ptx(ptxas, exact_block_sizes(kEntryPtx), "sm_90a", exact, why)) << why;
  EXPECT_TRUE(is_elf(exact));
  ASSERT_TRUE(assemble_ptx(ptxas, kEntryPtx, "sm_90a", bounded, why)) << why;
  EXPECT_NE(exact, bounded) << "the two directives give ptxas different facts";
}

TEST(PtxLink, AssemblyErrorsCarryPtxasMessages) {
  const std::string ptxas = ptxas_path();
  if (ptxas.empty())
    GTEST_SKIP() << "no ptxas beside the CUDA headers";
  std::string cubin, why;
  EXPECT_FALSE(assemble_ptx(ptxas, ".version 9.0\n.target sm_90a\nthis is not ptx\n", "sm_90a",
                            cubin, why));
  EXPECT_NE(why.find("exited with"), std::string::npos) << why;
  EXPECT_FALSE(assemble_ptx("/nonexistent/ptxas", kEntryPtx, "sm_90a", cubin, why));
  EXPECT_NE(why.find("/nonexistent/ptxas"), std::string::npos) << why;
}

TEST(PtxLink, TilecPtxasChoosesOrTurnsOffTheAssembler) {
  setenv("TILEC_PTXAS", "", 1);
  EXPECT_EQ(ptxas_path(), "");
  setenv("TILEC_PTXAS", "/nonexistent/ptxas", 1);
  EXPECT_EQ(ptxas_path(), "");
  unsetenv("TILEC_PTXAS");
}

// Through NVRTC: a generated-style kernel with __launch_bounds__ compiles for both families.
TEST(PtxLink, NvrtcKernelsWithLaunchBoundsLink) {
  tilec_test::ScopedCacheDir dir;
  for (const char *arch : {"sm_80", "sm_90a"}) {
    tilec::detail::CompileJob job = tilec_test::scale_job(arch);
    job.source = R"cuda(
template <int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void __launch_bounds__(NUM_WARPS * 32) bounded_kernel(int* out) { out[threadIdx.x] = 1; }
)cuda";
    job.name_expression = "bounded_kernel<4, 1, 0u>";
    EXPECT_TRUE(is_elf(tilec::detail::compile_with_nvrtc(job, dir.path() + "/failed/x.cu").cubin))
        << arch;
  }
}
