// The pipeline, as a table of contents:
//
//   frontend    clang AST of each TILEC_KERNEL -> tile IR (frontend/)
//   verify      structural checks after the frontend and after every pass (verifyKernel:
//               ir/Printer.cpp, ir/VerifyValues.cpp)
//   then the passes of passTable() below, in order; codegen/ writes the CUDA, the launcher
//   header and the AOT unit from the result. The same table drives --dump-after, tilec-opt's
//   --run-pass and the pass lists of --help: a new pass is one line here.
//
// The passes that depend on the GPU (layout, pipeline) and the emitters take the Target built
// from --arch (target/Target.h): what the output may rely on on every GPU it must run on.
#include "Pipeline.h"

#include "analysis/AxisInfo.h"
#include "ir/Parser.h"
#include "transforms/AllocateSharedMemory.h"
#include "transforms/FoldDotAdds.h"
#include "transforms/CarriedPointerBases.h"
#include "transforms/DotOperandsInRegisters.h"
#include "transforms/FreeStages.h"
#include "transforms/PingpongWarpgroups.h"
#include "transforms/FuseArgReductions.h"
#include "transforms/FuseDotTranspose.h"
#include "transforms/HoistDotOperands.h"
#include "transforms/KMajorOperands.h"
#include "transforms/LayoutAssignment.h"
#include "transforms/LowerPipeline.h"
#include "transforms/OrderMemoryAccesses.h"
#include "transforms/OverlapDots.h"
#include "transforms/PersistentPrograms.h"
#include "transforms/PipelineLoads.h"
#include "transforms/RematerializeConversions.h"
#include "transforms/SameTypeCasts.h"
#include "transforms/PrefetchRows.h"
#include "transforms/SinkIntoBranches.h"
#include "transforms/SinkWideningCasts.h"
#include "transforms/SplitRaggedLoops.h"
#include "transforms/TmaCopies.h"
#include "transforms/TmaStores.h"
#include "transforms/TransposeLoads.h"
#include "transforms/TransposeTiles.h"
#include "transforms/UnitStrideAccesses.h"
#include "transforms/UnitStrideDotLoops.h"
#include "transforms/UnswitchConstexprIfs.h"
#include "transforms/WarpSpecialize.h"
#include "transforms/ZeroAccumulators.h"

#include <algorithm>

namespace tilec {

namespace {

/// Adapts a pass that cannot fail, and does not depend on the target, to the table's
/// signature.
template <void (*Fn)(Kernel &)> std::string infallible(Kernel &k, const Target &, const Op **) {
  Fn(k);
  return "";
}

std::string pipelineLoads(Kernel &k, const Target &target, const Op **) {
  runPipelineLoads(k, target);
  return "";
}

std::string tmaCopies(Kernel &k, const Target &target, const Op **) {
  runTmaCopies(k, target);
  return "";
}

std::string warpSpecialize(Kernel &k, const Target &target, const Op **) {
  runWarpSpecialize(k, target);
  return "";
}

std::string persistentPrograms(Kernel &k, const Target &target, const Op **) {
  runPersistentPrograms(k, target);
  return "";
}

std::string tmaStores(Kernel &k, const Target &target, const Op **) {
  runTmaStores(k, target);
  return "";
}

std::string unitStrideDotLoops(Kernel &k, const Target &target, const Op **) {
  runUnitStrideDotLoops(k, target);
  return "";
}

std::string overlapDots(Kernel &k, const Target &target, const Op **) {
  runOverlapDots(k, target);
  return "";
}

std::string freeStages(Kernel &k, const Target &target, const Op **) {
  runFreeStages(k, target);
  return "";
}

std::string pingpongWarpgroups(Kernel &k, const Target &target, const Op **) {
  runPingpongWarpgroups(k, target);
  return "";
}

constexpr const char *kFrontendDescription = "the C++ kernel as tile IR (frontend/)";

} // namespace

const std::vector<PassInfo> &passTable() {
  static const std::vector<PassInfo> table = {
      {"fold-dot-adds",
       "`acc += tl::dot(a, b)` becomes `acc = tl::dot(a, b, acc)`: one accumulator, added to by "
       "the tensor cores (transforms/FoldDotAdds.cpp)",
       infallible<runFoldDotAdds>},
      {"unswitch-constexpr-ifs",
       "a tl::dot loop with an if constexpr holding loads gets a copy per branch, the branch's "
       "ops at the copy's top level (transforms/UnswitchConstexprIfs.cpp)",
       infallible<runUnswitchConstexprIfs>},
      {"sink-into-branches",
       "the short straight-line code after a run-time if that reads the tiles it joins is "
       "copied into each branch, so that no tile is live across the join "
       "(transforms/SinkIntoBranches.cpp)",
       infallible<runSinkIntoBranches>},
      {"carried-pointer-bases",
       "a pointer tile a loop without tl::dot advances by a scalar is carried as its scalar "
       "base, the tile rebuilt from base and offsets in the body (transforms/CarriedPointerBases.cpp)",
       infallible<runCarriedPointerBases>},
      {"same-type-casts",
       "a loop whose tl::dot reads loads cast to another type parameter gets a copy for the "
       "specializations where the types are one, without the casts (transforms/SameTypeCasts.cpp)",
       infallible<runSameTypeCasts>},
      {"split-ragged-loops",
       "loops whose masks are all true but in their last blocks run those blocks unmasked, "
       "the rest in a second copy (transforms/SplitRaggedLoops.cpp)",
       infallible<runSplitRaggedLoops>},
      {"transpose-tiles",
       "kernels whose rank-2 tiles are contiguous down their columns hold them transposed "
       "(transforms/TransposeTiles.cpp)",
       infallible<runTransposeTiles>},
      {"unit-stride-accesses",
       "loads and stores stepping along their rows by a kernel argument get a copy for that "
       "argument equal to 1 (transforms/UnitStrideAccesses.cpp)",
       infallible<runUnitStrideAccesses>},
      {"unit-stride-dot-loops",
       "loops with a tl::dot whose loads step by kernel arguments get a copy for those "
       "arguments equal to 1 (transforms/UnitStrideDotLoops.cpp)",
       unitStrideDotLoops},
      {"axis-info", "contiguity, divisibility and constancy (analysis/AxisInfo.cpp)",
       infallible<runAxisInfo>},
      {"transpose-loads",
       "tl::dot operands stored transposed are loaded along their contiguous axis "
       "(transforms/TransposeLoads.cpp)",
       infallible<runTransposeLoads>},
      {"layout", "thread layouts and global access widths (transforms/LayoutAssignment.cpp)",
       runLayoutAssignment},
      {"fuse-arg-reductions",
       "tl::max and tl::argmax of the same tile reduce once, in pairs "
       "(transforms/FuseArgReductions.cpp)",
       infallible<runFuseArgReductions>},
      {"remat",
       "cheap rank-1 index tiles recomputed in the layout a user needs instead of converted "
       "(transforms/RematerializeConversions.cpp)",
       infallible<runRematerializeConversions>},
      {"fuse-dot-transpose",
       "tl::dot reads trans(x) operands as x (transforms/FuseDotTranspose.cpp)",
       infallible<runFuseDotTranspose>},
      {"hoist-dot-operands",
       "loop-invariant tl::dot operands go to shared memory once, before the loop "
       "(transforms/HoistDotOperands.cpp)",
       infallible<runHoistDotOperands>},
      {"pipeline",
       "loads that feed tl::dot go to shared memory stages ahead (transforms/PipelineLoads.cpp)",
       pipelineLoads},
      {"dot-registers",
       "tl::dot reads an A operand computed from another dot's result from registers "
       "(transforms/DotOperandsInRegisters.cpp)",
       infallible<runDotOperandsInRegisters>},
      {"lower-pipeline",
       "pipelined loops become their schedule: stage rings, a prologue, async copies, waits "
       "and barriers (transforms/LowerPipeline.cpp)",
       infallible<runLowerPipeline>},
      {"k-major-operands",
       "8-bit tl::dot operands staged [K, N] are transposed K-major in shared memory before the "
       "dot (transforms/KMajorOperands.cpp)",
       infallible<runKMajorOperands>},
      {"allocate-smem",
       "offsets of the stage rings and local_alloc buffers in dynamic shared memory "
       "(transforms/AllocateSharedMemory.cpp)",
       infallible<runAllocateSharedMemory>},
      {"tma-copies",
       "on sm_90 and newer, pipelined copies of whole boxes come from tensor maps by the copy "
       "engine, on mbarriers (transforms/TmaCopies.cpp)",
       tmaCopies},
      {"order-memory",
       "barriers between accesses other threads make to the same global memory, one writing "
       "(transforms/OrderMemoryAccesses.cpp)",
       infallible<runOrderMemoryAccesses>},
      {"warp-specialize",
       "on sm_90a, a dot loop whose copies are all TMA's gets a producer warpgroup that issues "
       "them; the consumers wait for stages and free them, with no barrier per iteration "
       "(transforms/WarpSpecialize.cpp)",
       warpSpecialize},
      {"persistent-programs",
       "a warp-specialized kernel runs its programs in turn in each block, so that the launcher "
       "may start only as many blocks as the GPU holds (transforms/PersistentPrograms.cpp)",
       persistentPrograms},
      {"tma-stores",
       "on sm_90a, a warp-specialized kernel's store of a tl::dot result that writes one box of a "
       "matrix goes through a shared-memory buffer to the copy engine, which completes it while "
       "the program goes on (transforms/TmaStores.cpp)",
       tmaStores},
      {"zero-accumulators",
       "tl::dots whose accumulator is zeros write their product instead of adding it, with no "
       "zeros written first (transforms/ZeroAccumulators.cpp)",
       infallible<runZeroAccumulators>},
      {"overlap-dots",
       "on sm_90a, two independent tl::dots of a region run back to back, the first issued "
       "without waiting (transforms/OverlapDots.cpp)",
       overlapDots},
      {"free-stages",
       "on sm_90a, a pipelined loop whose stages all come from the copy engine frees each stage "
       "with one mbarrier arrival per warp instead of a barrier per iteration, so that the "
       "program's warps need not run in step (transforms/FreeStages.cpp)",
       freeStages},
      {"pingpong-warpgroups",
       "on sm_90a, in a loop where a tl::dot's result goes through arithmetic into another "
       "tl::dot, the program's two warpgroups take turns at the tensor cores, so that one's dots "
       "run while the other computes (transforms/PingpongWarpgroups.cpp)",
       pingpongWarpgroups},
      {"sink-widening-casts",
       "casts of tiles to a wider element type move down to their first reader, so that the "
       "registers hold the narrow elements until then (transforms/SinkWideningCasts.cpp)",
       infallible<runSinkWideningCasts>},
      {"prefetch-rows",
       "a tile load of a whole row at the kernel's top level gets the row prefetched into L2 "
       "by the copy engine ahead of the first load, so that loads ptxas issues late wait on L2 "
       "rather than DRAM (transforms/PrefetchRows.cpp)",
       infallible<runPrefetchRows>},
  };
  return table;
}

const PassInfo *findPass(const std::string &name) {
  for (const PassInfo &p : passTable())
    if (name == p.name)
      return &p;
  return nullptr;
}

const std::vector<std::string> &passNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = {"frontend"};
    for (const PassInfo &p : passTable())
      n.push_back(p.name);
    return n;
  }();
  return names;
}

std::string passHelp() {
  size_t width = 0;
  for (const std::string &n : passNames())
    width = std::max(width, n.size());
  std::string out;
  auto line = [&](const std::string &name, const char *description) {
    out += "  " + name + std::string(width + 2 - name.size(), ' ') + description + "\n";
  };
  line("frontend", kFrontendDescription);
  for (const PassInfo &p : passTable())
    line(p.name, p.description);
  return out;
}

std::string verifyAfter(const Kernel &k, const std::string &pass) {
  if (std::string err = verifyKernel(k); !err.empty())
    return "internal error: IR verification failed for '" + k.name + "' after " + pass + ": " + err;
  return "";
}

std::string dumpBanner(const std::string &pass) {
  return "// -----// IR after " + pass + " //----- //\n";
}

std::string runPasses(Kernel &k, const Target &target, const std::string &dumpAfter,
                      std::string &dump, const Op **where, std::vector<std::string> *printed) {
  auto after = [&](const std::string &pass) {
    if (dumpAfter == pass || dumpAfter == "all")
      dump += dumpBanner(pass) + printKernel(k);
    if (printed)
      printed->push_back(printKernel(k));
  };
  after("frontend");
  if (std::string err = verifyAfter(k, "frontend"); !err.empty())
    return err;
  for (const PassInfo &p : passTable()) {
    if (std::string err = p.run(k, target, where); !err.empty())
      return err;
    if (std::string err = verifyAfter(k, p.name); !err.empty()) {
      after(p.name); // what failed to verify, when it was asked for
      return err;
    }
    after(p.name);
  }
  return "";
}

std::string runPassList(Kernel &k, const Target &target, const std::vector<std::string> &names,
                        const Op **where) {
  for (const std::string &name : names) {
    const PassInfo *p = findPass(name);
    if (!p)
      return "unknown pass '" + name + "'";
    if (std::string err = p->run(k, target, where); !err.empty())
      return err;
    if (std::string err = verifyAfter(k, name); !err.empty())
      return err;
  }
  return "";
}

namespace {

/// Parses `text` (one kernel) and checks that it prints back the same.
std::unique_ptr<Kernel> reparse(const std::string &text, const std::string &stage,
                                std::string &err) {
  std::unique_ptr<Kernel> k = parseKernel(text, err);
  if (!k) {
    err = "cannot parse the IR after " + stage + ": " + err;
    return nullptr;
  }
  if (std::string again = printKernel(*k); again != text) {
    err = "the IR after " + stage + " prints differently once parsed:\n" +
          firstDifference(text, again);
    return nullptr;
  }
  if (err = verifyAfter(*k, stage + " (parsed)"); !err.empty())
    return nullptr;
  return k;
}

} // namespace

std::string checkRoundTrip(const std::vector<std::string> &printed, const Target &target) {
  const auto &table = passTable();
  auto stage = [&](size_t i) { return i == 0 ? std::string("frontend") : table[i - 1].name; };
  for (size_t i = 0; i < printed.size(); ++i) {
    std::string err;
    std::unique_ptr<Kernel> k = reparse(printed[i], stage(i), err);
    if (!k)
      return err;
    for (size_t j = i + 1; j < printed.size(); ++j) {
      if (std::string e = table[j - 1].run(*k, target, nullptr); !e.empty())
        return stage(j) + " fails on the IR parsed after " + stage(i) + ": " + e;
      if (std::string again = printKernel(*k); again != printed[j])
        return stage(j) + " gives another IR on the IR parsed after " + stage(i) + ":\n" +
               firstDifference(printed[j], again);
    }
  }
  return "";
}

} // namespace tilec
