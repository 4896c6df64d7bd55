// The pipeline, as a table of contents:
//
//   frontend    clang AST of each TILEC_KERNEL -> tile IR (frontend/)
//   verify      structural checks (ir/Printer.cpp)
//   axis-info   contiguity / divisibility / constancy (analysis/AxisInfo.cpp)
//   layout      thread layouts and global access widths (transforms/LayoutAssignment.cpp)
//   fuse-dot-transpose  tl::dot reads trans(x) operands as x (transforms/FuseDotTranspose.cpp)
//   pipeline    loads that feed tl::dot go to shared memory stages ahead
//   (transforms/PipelineLoads.cpp) (then codegen/: CUDA, launcher header, AOT unit)
//
// The passes that depend on the GPU (layout, pipeline) and the emitters take the Target built
// from --arch (target/Target.h): what the output may rely on on every GPU it must run on.
#include "Pipeline.h"

#include "analysis/AxisInfo.h"
#include "transforms/FuseDotTranspose.h"
#include "transforms/LayoutAssignment.h"
#include "transforms/PipelineLoads.h"

namespace tilec {

const std::vector<std::string> &passNames() {
  static const std::vector<std::string> names = {"frontend", "axis-info", "layout",
                                                 "fuse-dot-transpose", "pipeline"};
  return names;
}

std::string runPasses(Kernel &k, const Target &target, const std::string &dumpAfter,
                      std::string &dump, const Op **where) {
  auto after = [&](const char *pass) {
    if (dumpAfter == pass)
      dump += "// -----// IR after " + std::string(pass) + " //----- //\n" + printKernel(k);
  };
  after("frontend");
  if (std::string err = verifyKernel(k); !err.empty())
    return "internal error: IR verification failed for '" + k.name + "': " + err;
  runAxisInfo(k);
  after("axis-info");
  if (std::string err = runLayoutAssignment(k, target, where); !err.empty())
    return err;
  after("layout");
  runFuseDotTranspose(k);
  after("fuse-dot-transpose");
  runPipelineLoads(k, target);
  after("pipeline");
  return "";
}

} // namespace tilec
