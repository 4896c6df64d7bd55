// The pipeline, as a table of contents:
//
//   frontend    clang AST of each TILEC_KERNEL -> tile IR (frontend/)
//   verify      structural checks (ir/Printer.cpp)
//   axis-info   contiguity / divisibility / constancy (analysis/AxisInfo.cpp)
//   transpose-loads  dot operands stored transposed are loaded along their contiguous axis
//               (transforms/TransposeLoads.cpp)
//   layout      thread layouts and global access widths (transforms/LayoutAssignment.cpp)
//   remat       cheap rank-1 index tiles recomputed instead of converted
//               (transforms/RematerializeConversions.cpp)
//   fuse-dot-transpose  tl::dot reads trans(x) operands as x (transforms/FuseDotTranspose.cpp)
//   hoist-dot-operands  loop-invariant tl::dot operands go to shared memory once, before the
//               loop (transforms/HoistDotOperands.cpp)
//   pipeline    loads that feed tl::dot go to shared memory stages ahead
//   (transforms/PipelineLoads.cpp) (then codegen/: CUDA, launcher header, AOT unit)
#include "Pipeline.h"

#include "analysis/AxisInfo.h"
#include "transforms/FuseDotTranspose.h"
#include "transforms/HoistDotOperands.h"
#include "transforms/LayoutAssignment.h"
#include "transforms/PipelineLoads.h"
#include "transforms/RematerializeConversions.h"
#include "transforms/TransposeLoads.h"

namespace tilec {

const std::vector<std::string> &passNames() {
  static const std::vector<std::string> names = {"frontend", "axis-info", "transpose-loads", "layout", "remat", "fuse-dot-transpose", "hoist-dot-operands", "pipeline"};
  return names;
}

std::string runPasses(Kernel &k, const std::string &dumpAfter, std::string &dump,
                      const Op **where) {
  auto after = [&](const char *pass) {
    if (dumpAfter == pass)
      dump += "// -----// IR after " + std::string(pass) + " //----- //\n" + printKernel(k);
  };
  after("frontend");
  if (std::string err = verifyKernel(k); !err.empty())
    return "internal error: IR verification failed for '" + k.name + "': " + err;
  runAxisInfo(k);
  after("axis-info");
  runTransposeLoads(k);
  after("transpose-loads");
  if (std::string err = runLayoutAssignment(k, where); !err.empty())
    return err;
  after("layout");
  runRematerializeConversions(k);
  after("remat");
  runFuseDotTranspose(k);
  after("fuse-dot-transpose");
  runHoistDotOperands(k);
  after("hoist-dot-operands");
  runPipelineLoads(k);
  after("pipeline");
  return "";
}

} // namespace tilec
