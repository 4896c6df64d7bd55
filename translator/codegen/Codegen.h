// Code generation: the CUDA source, the typed launcher header and the AOT registration unit.
#pragma once

#include "ir/Words.h"
#include "ir/Autotune.h"
#include "codegen/LauncherNames.h"
#include "ir/IR.h"
#include "target/Target.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {

struct EmitOptions {
  std::string inputName; // "vector_add.cpp", as shown in comments and #line
  std::string inputPath; // for #line directives
  std::string stem;      // "vector_add": the output files' names
  std::string ns;        // the stem as an identifier (fileIdentifier): tilec_generated::<ns>
  bool lineDirectives = false;
  Target target = Target::defaultTarget(); // the GPUs the output must run on (--arch)
};

/// The readable .cu: one __global__ template per kernel.
std::string emitCuda(const std::vector<const Kernel *> &kernels, const EmitOptions &opts);

/// Bytes of dynamic shared memory the kernel needs (Kernel::dynamicSmemBytes), as a C++
/// expression over its template parameters and `numStages`; empty when it needs none.
std::string dynamicSmemBytes(const Kernel &k, const std::string &numStages);

/// The launcher's statements that encode the kernel's tensor maps (tma_map ops) into
/// `maps` (declared there unless `declareMaps` is false) and set bit i of `mapsLive` when map
/// i could be encoded, each line after `indent`; empty for a kernel without maps.
std::string tmaMapEncoding(const Kernel &k, const std::string &maps, const std::string &mapsLive,
                           const std::string &indent, bool declareMaps = true);
/// How many tensor maps (tma_map ops) the kernel receives.
int tmaMapCount(const Kernel &k);
/// Whether the kernel runs a producer warpgroup after its NUM_WARPS warps (warp-specialize):
/// its launchers add tilec::producer_threads(threads) threads to each block.
bool hasProducerWarpgroup(const Kernel &k);
/// The launcher's mask of encoded maps when every map is encoded (and the producer warpgroup
/// allowed, for a warp-specialized kernel): the all_maps_encoded fact.
std::string allMapsLive(const Kernel &k);
/// The bits of the kernel's specialization facts past the arguments' (ir/SpecFacts.h), as
/// terms `| tilec::..._fact(...)` of the launcher's DIV16 mask; `grid` is the launch's grid.
std::string specFactTerms(const Kernel &k, const LauncherNames &n, const std::string &grid);

/// Threads per block for `threads` (an expression: num_warps times the warp size), with the
/// producer warpgroup when the kernel has one.
std::string blockThreads(const Kernel &k, const std::string &threads);

/// The kernel arguments that follow the user's for its tensor maps: ", (void*)&maps[0], ...,
/// (void*)&mapsLive", or empty; then a persistent kernel's ", (void*)&programs".
std::string tmaMapArgs(const Kernel &k, const LauncherNames &n);

/// For a persistent kernel (persistent-programs): the launcher's statements, after `indent`,
/// that declare `programs` (the x of `grid`, an expression) and whether the launch may be
/// persistent (every tensor map encoded and the producer warpgroup allowed); empty otherwise.
std::string persistentSetup(const Kernel &k, const LauncherNames &n, const std::string &grid,
                            const std::string &indent);

/// The last argument of Kernel::launch: ", persistent" for a persistent kernel, else empty.
std::string persistentLaunchArg(const Kernel &k, const LauncherNames &n);

/// PIPELINE_STAGES, the stage buffers per ring of a pipelined loop, for the launch option
/// spelled `numStages`: at least 2.
std::string pipelineStagesDefinition(const std::string &numStages);
/// The stage count a loop option gives the kernel's pipelines (tl::range(..., {.num_stages =
/// N}); the frontend makes every loop of a kernel agree), or none: the launch's num_stages.
std::optional<SymExpr> loopNumStages(const Kernel &k);

/// A tile dimension that depends on template parameters (and nothing else), with where it
/// first appears.
struct TileDim {
  std::string text; // a C++ expression over the kernel's int template parameters
  clang::SourceLocation loc;
  // The `if constexpr` conditions under which the dimension's tiles exist ("" for always): a
  // tile of a discarded branch need not have a valid dimension, as in Triton.
  std::string guard;
};
/// The kernel's symbolic tile dimensions, each once in order of appearance: the launcher and
/// the kernel check them per specialization (static_assert), as the device library would
/// only deep inside its layouts.
std::vector<TileDim> symbolicTileDims(const Kernel &k);
/// A tile shape of rank 2 or 3 with a dimension known per specialization only (each over int
/// template parameters, or a constant), with where it first appears.
struct TileShape {
  std::vector<std::string> dims;
  clang::SourceLocation loc;
  std::string guard; // as TileDim's
  /// "BM, BN": the dimensions as arguments (and as the shape's text between brackets).
  std::string joined() const;
};
/// The kernel's such shapes, each once: the kernel checks their element counts (static_assert).
std::vector<TileShape> symbolicTileShapes(const Kernel &k);
/// `check`, or `!(guard) || check` for a check that applies under `guard` only.
std::string guardedCheck(const std::string &guard, const std::string &check);
/// What the kernel's static_assert on `shape`'s element count says (--check reports it at
/// `loc`).
std::string tileElemsMessage(const Kernel &k, const TileShape &shape);
/// What the kernel's static_assert on `dim` says (--check turns it into an error at `loc`).
std::string tileDimMessage(const Kernel &k, const std::string &dim);

/// What the kernel's static_assert says when its shared buffer is over the 48 KiB of static
/// shared memory (a plain sentence: --check turns it into an error at the kernel's name).
std::string staticSmemMessage(const std::string &kernel);

/// The launcher header: the .cu text embedded, one typed launcher per kernel.
std::string emitLauncher(const std::vector<const Kernel *> &kernels, const std::string &cuda,
                         const EmitOptions &opts);

/// One letter per template parameter, as tilec::Kernel wants them: 'i', 'b' or 't'.
std::string templateKinds(const Kernel &k);

/// The autotuned launchers (`<kernel>_autotuned`) of the TILEC_AUTOTUNE declarations, appended
/// to the launcher header; "" when there are none.
std::string emitAutotunedLaunchers(const std::vector<const Kernel *> &kernels,
                                   const std::vector<AutotuneDecl> &decls, const EmitOptions &opts);

/// The launchers on PyTorch tensors (tilec/torch.h): an overload of each launcher above whose
/// pointer parameters take tensors, inside `#ifdef TILEC_TORCH_ADAPTER`.
std::string emitTorchLaunchers(const std::vector<const Kernel *> &kernels,
                               const std::vector<AutotuneDecl> &decls);

/// One ahead-of-time instantiation request: "add_kernel<1024>" or "add_kernel<1024>:8:3".
struct AotSpec {
  std::string kernel;
  std::vector<std::string> templateArgs;
  int numWarps = 4;
  int numStages = 3;
};
/// Parses a spec; returns an error message or "".
std::string parseAotSpec(const std::string &text, AotSpec &out);
/// Checks a spec's template arguments against k's parameters (element types, true/false,
/// decimal integers) and rewrites type arguments in the runtime's spelling (`int` is
/// `int32_t`); returns an error message or "".
std::string checkAotArgs(const Kernel &k, AotSpec &s);

/// The DIV16 masks instantiated ahead of time: none, pointers only, every eligible argument.
std::vector<uint64_t> aotDiv16Masks(const Kernel &k);

/// Full name expression of one instantiation, as the runtime spells it.
std::string nameExpression(const Kernel &k, const AotSpec &s, uint64_t div16);

/// The nvcc translation unit that instantiates and registers `specs`.
std::string emitAot(const std::vector<const Kernel *> &kernels, const std::vector<AotSpec> &specs,
                    const EmitOptions &opts);

} // namespace tilec
