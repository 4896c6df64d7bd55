// The tile IR: a kernel is a list of operations in SSA form over scalars and tiles.
//
// Values carry an element type and a symbolic shape; operations keep the source location
// they came from (for diagnostics and #line directives) and the C++ text they were built
// from (for comments in the generated CUDA). Analyses and layout assignment annotate values
// in place (see AxisInfo and Layout below).
#pragma once

#include "ir/SymExpr.h"
#include "ir/Types.h"

#include <clang/Basic/SourceLocation.h>

#include <memory>
#include <string>
#include <vector>

namespace tilec {

enum class OpKind {
  Param,         // a kernel argument
  Constant,      // a literal or template parameter; attr[0] is its value
  ProgramId,     // tl::program_id(axis); axis in `axis`
  NumPrograms,   // tl::num_programs(axis)
  Programs,      // the programs the launch asked for along axis 0 (a kernel argument the
                 // launcher adds: its grid's x); a persistent kernel's blocks run them in turn
  Arange,        // tl::arange<attr[0], attr[1]>()
  Splat,         // broadcast a scalar to a tile (tl::full, implicit broadcasts)
  Broadcast,     // a size-1 tile to a larger shape
  Binary,        // `opcode` is a C++ operator or a two-operand function (maximum, cdiv, ...)
  Unary,         // `opcode` is a C++ prefix operator or a one-operand function (exp, abs, ...)
  Ternary,       // fma, clamp
  Select,        // tl::where / ?:
  Cast,          // tl::cast<T>; the result type is the target
  Bitcast,       // tl::bitcast<T>
  AddPtr,        // pointer (scalar or tile) + offsets
  Load,          // operands: ptrs [, mask [, other]]; `opcode` the eviction policy
                 // ("evict_first", "evict_last" or ""), `cache` and `isVolatile` the hints
  Store,         // operands: ptrs, value [, mask]; `opcode`, `cache` as a Load's
  Hint,          // multiple_of / max_contiguous: operand 0 unchanged, attr[0] the hinted amount
  ExpandDims,    // rank-1 [N] -> rank-2 with a 1 inserted at attr[0]
  ConvertLayout, // the same rank-1 tile in another layout (through shared memory)
  Trans,         // rank-2 transpose (through shared memory)
  Reshape,       // same elements in row-major order, another shape (through shared memory)
  Flip,          // axis attr[0] reversed (tl::flip; through shared memory)
  Sort,          // every line along axis attr[0] sorted, descending when attr[1] (a bool,
                 // possibly a template parameter) holds; the result keeps the first
                 // result.shape[axis] of each line (tl::sort; tl::topk: descending, K long)
  Gather,        // operands: src, index; the result has the index's shape and, along axis
                 // attr[0], src's element at the index (tl::gather; src through shared memory)
  Histogram,     // operands: values (rank 1) [, mask]; the result [NUM_BINS] counts each value
                 // in 0 .. NUM_BINS - 1 (tl::histogram; shared-memory atomics)
  Reduce,        // `opcode` sum/max/min/xor_sum/argmax/argmin/reduce (region: combine(a, b))
  Scan,          // `opcode` cumsum/cumprod/associative_scan (region: combine); attr[0] reverse,
                 // attr[1] the axis
  Random,        // `opcode` rand/randn/randint; operands: seed, offsets (elementwise)
  InlineAsm,     // tl::inline_asm_elementwise: `opcode` the asm (Triton's: $0 the result,
                 // $1... the operands), `asmConstraints` Triton's constraints; elementwise
                 // over the operands (tiles of the result's shape, or scalars)
  Atomic,        // `opcode` add/max/min/xchg/cas; operands: ptrs, [cmp,] value [, mask]
  Dot,           // a [M, K] x b [K, N] + acc [M, N] on tensor cores; `opcode` the float
                 // precision ("tf32" or "ieee"); operands: a, b, acc (a and b may be smem tiles)
  LocalAlloc,    // a register tile copied into a shared-memory buffer of its own (an smem
                 // tile), for the tensor cores to read many times; attr[0] its byte offset in
                 // dynamic shared memory (set by allocate-smem)
  // The software-pipeline schedule (made by lower-pipeline from a `pipelined` loop):
  SmemRing,      // a ring of stage buffers in dynamic shared memory: smem<T, STAGES, M, N>,
                 // or smem<T, STAGES, N> for rank-1 loads;
                 // attr[0] its byte offset (set by allocate-smem)
  StageView,     // one stage of a ring: operands ring, stage index; an smem<T, M, N> tile
                 // (smem<T, N> for a ring of rank-1 stages)
  StageRead,     // a register tile read from a rank-1 stage (operand 0) in the result's
                 // layout: loads in a pipelined loop that feed no tl::dot
  AsyncCopy,     // copies a tile from global memory into a stage without waiting (cp.async):
                 // operands: the stage, pointers [, mask]; masked-off elements become zero
  AsyncCommit,   // closes the group of async copies issued since the last commit
  AsyncWait,     // waits until at most attr[0] committed groups are still in flight; with an
                 // operand (an mbarrier ring, set by tma-copies), only when the copy engine
                 // does not fill every stage of that ring's loop
  Barrier,       // every thread of the program reaches it before any goes on (__syncthreads)
  // Copies by the copy engine (TMA, made by tma-copies from async copies of whole boxes):
  TmaMap,        // a tensor map the launcher encodes and passes to the kernel: operands base
                 // pointer, rows, columns, row stride (kernel arguments or constants)[, column
                 // stride, an argument that must be 1]; attrs the tile's [rows] [columns][, 1:
                 // a stack of such matrices, `rows * row stride` apart, as deep as a map
                 // allows]. Maps are numbered in program order.
  TmaCopy,       // an AsyncCopy done from tensor map attr[0] when the launcher could encode
                 // it (else as the AsyncCopy): operands the stage, pointers, mask (as the
                 // AsyncCopy's), then the mbarrier ring, the stage index, the box's first row
                 // and first column[, its matrix in a stacked map]
  MbarrierRing,  // one mbarrier per stage of a pipelined loop's rings: smem<int64_t, STAGES>,
                 // initialized where it stands; optional operand: a bool this program must
                 // hold for the copy engine to fill them (its matrices of stacked maps >= 0)
  MbarrierArrive, // operands ring, stage: the copies of that stage are all issued
  MbarrierWait,  // operands ring, stage, phase (0 or 1): the stage's copies have landed
  MbarrierInval, // operand ring: the mbarriers are done with (after the loop)
  MbarrierRestart, // operand ring: every thread waits, then the mbarriers start over for the
                 // next program a persistent block runs (the loop copies without a producer)
  // Warp specialization (made by warp-specialize from a loop whose copies are all TMA's): a
  // producer warpgroup after the consumers' threads issues every stage's copies, and the
  // consumers only wait for stages, compute and free them.
  FreedRing,     // one mbarrier per stage that the consumer warps arrive on when they are done
                 // reading it: smem<int64_t, STAGES>
  WarpSpecialized, // operands the loop's mbarrier ring and its freed ring: a bool, whether the
                 // producer warpgroup loads this run (every copy of the loop is TMA's and the
                 // launcher allows it); initializes the freed ring when it does
  ProducerThread, // operand a WarpSpecialized flag: a bool, true in the one producer thread
                 // that issues the copies when the flag is
  ProducerBranch, // region 0: what the producer warpgroup runs (after giving registers to the
                 // consumers) before it leaves; the consumers skip it (and take the registers)
  TmaLoad,       // a TmaCopy with no cp.async alternative (the producer's): operands the
                 // stage, the mbarrier ring, the stage index, the box's first row and
                 // column[, its matrix]; attr[0] the tensor map
  MbarrierRelease, // operands freed ring, stage: every consumer warp is done reading the stage
  // Two warpgroups taking turns at the tensor cores (made by pingpong-warpgroups): each waits
  // for its turn before its tl::dots and passes the turn on once they are issued.
  WarpgroupTurns, // before a loop: a bool, whether the program's two warpgroups take turns in it
                 // (the emitter's condition: every tl::dot ending a turn runs on wgmma, each
                 // warpgroup holding its own rows); the second lets the first go first
  TurnBegin,     // operand a WarpgroupTurns flag: this warpgroup waits for its turn
  TurnEnd,       // operands the flag, then the tl::dots of the turn: the turn passes to the other
                 // warpgroup (their tensor-core work is issued)
  TurnsFinish,   // operand the flag, after the loop: the first warpgroup takes the turn the
                 // second passed it last, so that no arrival is left over
  PrefetchL2,    // operands: a scalar pointer, optionally a count of elements (else attr[0]'s):
                 // the copy engine brings [p, p + count) into L2, a hint ahead of the tile
                 // load of attr[0] elements it was made for; attr[1] the bytes of all the
                 // rows the program prefetches (prefetch-rows)
  DotWait,       // operands: results of tl::dots issued without waiting (`nowait`, made by
                 // overlap-dots): their tensor-core work is complete here; read them after it
  TmaStore,      // a Store of a tl::dot result by the copy engine (made by tma-stores): operands
                 // the Store's pointers, value and mask (as it runs when the launcher could not
                 // encode the map, or the box starts before (0, 0)), then the staging buffer (an
                 // smem_buffer), the box's first row and column[, a bool: use the copy
                 // engine (a persistent block runs several programs)]; attr[0] the tensor map,
                 // attr[1] the condition under which the buffer is allocated (it fits). The
                 // threads write the tile into the buffer, one thread issues its copy, and it
                 // completes in the background
  TmaStoreDrain, // the copy engine has read the buffers of every tma_store (before the block
                 // leaves)
  SmemBuffer,    // one tile's buffer in dynamic shared memory for a loop's use: smem<T, M, N>;
                 // attr[0] its byte offset (set by allocate-smem)
  SmemTranspose, // writes smem tile operand 0 ([K, N]) transposed into operand 1 ([N, K])
  StaticAssert,  // a static_assert over template parameters: `opcode` the message, attr[0]
                 // the condition as C++ (checked where the kernel is compiled for the GPU)
  Print,         // tl::device_print: `opcode` the message; operands: the values printed
  Assert,        // tl::device_assert: `opcode` the message; operand: the condition
  For,           // operands: lower, upper, step, carried inits; region 0 args: induction var,
                 // carried values; `opcode` the comparison ("<", ">", ...)
  If,            // operands: condition, carried inits; regions: then, else
  While,         // operands: carried inits; regions: condition (args: carried, yields the bool),
                 // body (args: carried, yields them)
  Return,        // leave the kernel
};

const char *opKindName(OpKind k);

/// An Atomic's ordering other than Triton's default (acq_rel at GPU scope) is its attrs
/// [sem] [scope]: indices into these, which spell the device library's MemSem / MemScope and
/// the tl::sem / tl::scope enumerators alike.
inline constexpr const char *kAtomicSems[] = {"relaxed", "acquire", "release", "acq_rel"};
inline constexpr const char *kAtomicScopes[] = {"cta", "gpu", "sys"};

/// Cache modifiers (Triton's cache_modifier, PTX's cache operators without the dot) that a
/// Load's or Store's `cache` may hold: the same spelling names tl::cache's enumerators and
/// the device library's Cache.
inline constexpr const char *kLoadCacheModifiers[] = {"ca", "cg", "cv"};
inline constexpr const char *kStoreCacheModifiers[] = {"wb", "cg", "cs", "wt"};
/// Whether `name` ("cg") is a cache modifier an op of `kind` (Load or Store) takes.
bool isCacheModifierOf(OpKind kind, const std::string &name);

/// What the contiguity/divisibility analysis knows about an integer or pointer value,
/// along the (single, for now) tile dimension; in elements, except `divisibility` of a
/// pointer, which is in bytes.
struct AxisInfo {
  SymExpr contiguity = 1;   // runs of this many consecutive values (+1 apart)
  SymExpr divisibility = 1; // power of two dividing the first value of each run
  SymExpr constancy = 1;    // runs of this many equal values
};

struct Op;
struct Region;

struct Value {
  int id = 0;
  Type type;
  std::string name;  // the C++ variable it was bound to, or empty
  Op *def = nullptr; // null for region arguments
  int uses = 0;
  AxisInfo info;
  int layout = -1; // index into Kernel::layouts for tiles
};

/// A nested body of a For or If: its arguments (a For's induction variable and carried
/// values) and the values of the carried variables at its end.
struct Region {
  std::vector<std::unique_ptr<Op>> ops;
  std::vector<Value *> args;
  std::vector<Value *> yields;
};

struct Op {
  OpKind kind;
  std::string opcode; // for Binary/Unary/Ternary/Hint
  std::vector<Value *> operands;
  Value *result = nullptr;      // null for Store, For, If, Return
  std::vector<Value *> results; // For / If: the carried variables after the op
  std::vector<std::unique_ptr<Region>> regions;
  std::vector<std::string> carriedNames; // For / If: the C++ variables carried
  bool unrolled = false;                 // For over tl::static_range
  bool rolled = false;                   // For the CUDA compiler must not unroll (unroll 1)
  // A For's loop options (tl::range(..., {...}), Triton's keyword arguments): the kernel's
  // pipeline stage count in place of the launch's num_stages (0: the launch's), how many times
  // the CUDA compiler unrolls it (0: its choice), and no producer warpgroup for it.
  SymExpr loopStages = 0;
  SymExpr unrollFactor = 0;
  bool noWarpSpecialize = false;
  std::string constexprCond;             // If: `if constexpr` on this compile-time condition
  std::vector<SymExpr> attrs;
  int axis = 0;
  clang::SourceLocation loc;
  unsigned line = 0;   // presumed line in the input file
  std::string srcText; // the C++ expression this op came from (for comments)
  // Loads, stores and float atomic adds (set by layout assignment): elements per vector
  // access.
  SymExpr accessWidth = 1;
  // Loads and stores: the cache modifier (one of kLoadCacheModifiers / kStoreCacheModifiers,
  // "" for none) and, for a load, Triton's volatile.
  std::string cache;
  bool isVolatile = false;
  // A Store of a tl::dot result (Mma layout; set by layout assignment): where the elements are
  // 2 bytes and each fragment's 8 columns are consecutive addresses, the quads of threads
  // transpose their pairs and store 16-byte runs (the device library's store_quad_runs).
  bool quadRuns = false;
  // An InlineAsm: its constraints ("=r,r": the result's register, then one per operand) and
  // whether every execution must stay (Triton's is_pure = false: `asm volatile`).
  std::string asmConstraints;
  bool asmImpure = false;
  // Software pipelining: what PipelineLoads decided, for LowerPipeline to carry out (no op
  // has these after lower-pipeline). A For: its loads that feed tl::dot are to be copied to
  // shared memory NUM_STAGES - 1 iterations ahead (`pipelined`), and `producerCarried[i]`
  // says carried variable i only serves those copies (pointers that advance). An op in such
  // a loop's body: `stage` says which part of the iteration runs it.
  bool pipelined = false;
  std::vector<bool> producerCarried;
  enum class Stage { Consumer, Producer, Both } stage = Stage::Consumer;
  bool asyncCopy = false; // a Load whose tile is to go to shared memory (an async copy)
  // A Dot (set by FuseDotTranspose, TransposeLoads, KMajorOperands): operand i is given
  // transposed ([K, M] for a, [N, K] for b).
  bool dotTransposed[2] = {false, false};
  // A Dot (set by DotOperandsInRegisters): a is read from registers, in the mma layout.
  bool dotRegistersA = false;
  // A Dot (set by OverlapDots): issued without waiting for the tensor cores; a DotWait after
  // the next dot completes it, so that the two run back to back.
  bool dotNoWait = false;
  // A Dot (set by ZeroAccumulators): its accumulator is zeros, so it writes its product
  // instead of adding it and the accumulator registers need no zeros written first.
  bool dotZeroAcc = false;
  // A ProgramId along y or z (set by UnitStrideAccesses): 0 in the specializations for a grid
  // of one program along its axis (ir/SpecFacts.h), so that its divisibility is known there.
  bool zeroIfGridOne = false;
};

/// A layout for tiles: how a program instance's threads hold the elements
/// (templates/tilec/device/common/layout.cuh, layout2d.cuh).
struct Layout {
  // Mma: where mma.sync leaves tl::dot results (templates/tilec/device/sm80/mma_layout.cuh).
  enum class Kind { Blocked, Slice, Mma } kind = Kind::Blocked;
  std::vector<SymExpr> shape; // Blocked, Mma: the tile shape (rank 1 or 2; Mma rank 2)
  SymExpr maxVec = 1;         // Blocked: widest run of consecutive elements one thread holds
  // Blocked rank 2 (set by layout assignment): warps split the rows before the columns, so
  // that each row stays within one warp (tiles reduced or scanned along their rows only).
  bool warpsDown = false;
  int parent = -1;            // Slice: the rank-2 blocked layout
  int dim = 0;                // Slice: the dimension of the parent that is reduced / expanded
};

/// The most values a launcher's specialization key holds (tilec::SpecKey::kMax): the
/// template arguments, num_warps, num_stages and DIV16.
constexpr size_t kMaxSpecKeyValues = 64;

struct TemplateParam {
  enum class Kind { Int, Bool, Type } kind;
  std::string name;
  std::string cppType; // "int", "unsigned", "bool", "class"
  std::string defaultArg; // the default's value as the launcher spells it, or empty
};

struct KernelParam {
  std::string name;
  Type type;
  bool canCarryDiv16() const { return type.pointer || type.elem.isInteger(); }
};

struct Kernel {
  std::string name;
  std::string inputFile;
  std::vector<TemplateParam> templateParams;
  std::vector<KernelParam> params;
  std::vector<std::unique_ptr<Value>> values;
  Region body;                     // the kernel's ops, in program order
  std::vector<Region *> insertion; // where append() adds ops (innermost last)
  std::vector<Layout> layouts;
  // Bytes of dynamic shared memory the kernel needs (set by allocate-smem; 0 for none): the
  // stage rings and local_alloc buffers, at the offsets their ops hold.
  SymExpr dynamicSmemBytes = 0;
  // Every rank-2 tile has its two axes traded with the source's (set by transpose-tiles):
  // the source's [M, N] tiles are [N, M] here.
  bool tilesTransposed = false;

  Value *newValue(Type t, std::string name = "");
  Op *append(OpKind kind, std::vector<Value *> operands, Type resultType, bool hasResult = true);
  Region &current() { return insertion.empty() ? body : *insertion.back(); }
  /// Inserts a ConvertLayout of `v` right before `user` and makes `user` read it instead.
  Value *convertBefore(Op *user, Value *v, int layout);
  /// Inserts a ConvertLayout of `v` right after its definition (so that a loop does not
  /// repeat it); users are left to the caller. Null if `v` has no defining op.
  Value *convertAfterDef(Value *v, int layout);
};

/// Visits every op in program order, nested regions right after their op.
template <class Fn> void walkRegion(const Region &r, Fn &&fn) {
  for (auto &op : r.ops) {
    fn(*op);
    for (auto &sub : op->regions)
      walkRegion(*sub, fn);
  }
}
template <class Fn> void walk(const Kernel &k, Fn &&fn) { walkRegion(k.body, fn); }


/// Prints the IR in a stable textual form (for --dump-after and tests).
std::string printKernel(const Kernel &k);

/// Checks structural invariants; returns an empty string or a description of the problem.
std::string verifyKernel(const Kernel &k);

} // namespace tilec
