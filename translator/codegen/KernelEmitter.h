// KernelEmitter: writes one kernel of the tile IR as a CUDA __global__ template.
//
// Every tile lives in registers as a per-thread array laid out by its layout (Lk), so an
// elementwise op is a loop over the thread's elements and the mapping is visible in the code:
// element i of thread `tid` is tile index Lk::coord(tid, i). Single-use elementwise results
// are folded into their user's expression; named values, loads and multi-use values get
// arrays. The methods are split by concern: CudaEmitter.cpp (the kernel, elementwise code),
// EmitMemory.cpp (loads, stores, atomics), EmitControlFlow.cpp (for, while, if),
// EmitCollectives.cpp (reductions, scans, and moving elements between threads),
// EmitIndexed.cpp (flip, gather, histogram).
#pragma once

#include "analysis/AxisInfo.h"
#include "codegen/Codegen.h"
#include "codegen/NameTable.h"
#include "transforms/LayoutAssignment.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace tilec {
namespace emit {

inline bool isOperatorToken(const std::string &op) {
  return !op.empty() && !std::isalpha(static_cast<unsigned char>(op[0]));
}

/// `text` one level deeper (two spaces; preprocessor lines stay in column 0).
inline std::string indent(const std::string &text) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    out += (line.empty() || line[0] == '#' ? "" : "  ") + line + "\n";
    pos = nl == std::string::npos ? text.size() : nl + 1;
  }
  return out;
}

/// Source text on one line, for a comment: runs of white space and control characters become
/// one space. (clang skips a byte 0 in the source; copied into the CUDA, it would end NVRTC's
/// source, a C string, there.)
inline std::string oneLine(const std::string &s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == ' ' || c == 0x7f) {
      space = !out.empty();
      continue;
    }
    if (space)
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}

/// The `other` of a load without one: zero of the element type.
inline std::string zeroOf(const ElemType &t) {
  if (t.is(ScalarKind::F32))
    return "0.0f";
  if (t.is(ScalarKind::F64))
    return "0.0";
  if (t.isInteger())
    return t.cuda() + "(0)";
  return "tilec::cast<" + t.cuda() + ">(0)";
}

class KernelEmitter {
public:
  KernelEmitter(const Kernel &k, const EmitOptions &o) : k_(k), o_(o) {}
  std::string run();

  // (the methods below are defined in CudaEmitter.cpp and the Emit*.cpp files)
private:
  const Kernel &k_;
  const EmitOptions &o_;
  NameTable names_;
  std::ostringstream *out_ = nullptr;  // the region being written
  std::set<int> arrays_;               // values materialized into variables, by id
  // Argmax (argmin) results a fused max (min) reads its values from (fuse-arg-reductions):
  // the max's op, by the argmax result's id.
  std::map<int, const Op *> fusedMax_;
  std::map<int, std::string> storage_; // carried values: the variable that holds them
  const Region *region_ = nullptr;     // the region being written
  std::set<int> inPlace_;              // carried results that live in their initial array
  // Shared memory: one buffer for every use (reductions, scans, scalar atomics, layout
  // conversions). Each use ends with a barrier, so they can all take the same bytes; the
  // buffer is as large as the largest. Sizes as constexpr C++, in first-use order.
  std::vector<std::string> smemSizes_;
  // Dot operands staged in the buffer need it aligned to a whole swizzle pattern (wgmma).
  bool smemHoldsDotOperands_ = false;
  void needSmem(const std::string &bytes) {
    if (std::find(smemSizes_.begin(), smemSizes_.end(), bytes) == smemSizes_.end())
      smemSizes_.push_back(bytes);
  }

  void decideMaterialization();
  bool materialized(const Value *v) const { return arrays_.count(v->id) > 0; }
  std::string layoutOf(const Value *v) const { return layoutName(v->layout); }
  std::string elem(const Value *v, const std::string &i);
  std::string compute(const Op &op, const std::string &i);
  void comment(const Op &op, const char *indent = "  ");
  void emitOp(const Op &op);
  // Elementwise tile ops in a row, one loop over their elements (EmitElementwise.cpp)
  bool writesNothingOrScalar(const Op &op) const;
  bool isElementwiseTile(const Op &op) const;
  bool castsALoad(const Op &op) const;
  std::string elementIndex(const Op &op, std::string *runDecl);
  void emitElementwise(const std::vector<const Op *> &ops);
  std::string accessWidth(const Op &op, const std::string &w, const std::string &uniformName,
                          const std::string &what);
  void emitLoad(const Op &op);
  void emitPrefetchL2(const Op &op);
  void emitStore(const Op &op);
  void emitFor(const Op &op);
  void emitWhile(const Op &op);
  void emitReduce(const Op &op);
  void emitScan(const Op &op);
  void emitAtomic(const Op &op);
  void emitInlineAsm(const Op &op); // tl::inline_asm_elementwise (EmitInlineAsm.cpp)
  void emitRelayout(const Op &op);
  // tl::flip, tl::gather, tl::histogram (EmitIndexed.cpp)
  void emitFlip(const Op &op);
  void emitSort(const Op &op);
  void emitGather(const Op &op);
  void emitHistogram(const Op &op);
  std::string combiner(const Op &op, const std::string &elemType);
  void emitDebug(const Op &op); // tl::device_print / device_assert (EmitDebug.cpp)
  void emitIf(const Op &op);
  // tl::dot and the shared-memory buffers it reads (EmitDot.cpp)
  std::string smemTileType(const Value *operand);
  void declareDynamicSmem(const Op &op);
  void emitDot(const Op &op);
  std::string dotRunsOnWgmma(const Op &dot);
  // Two warpgroups taking turns at the tensor cores (pingpong-warpgroups; EmitTurns.cpp)
  void emitTurns(const Op &op);
  void emitLocalAlloc(const Op &op);
  // The software-pipeline schedule: rings, stages, async copies, waits, barriers
  // (EmitSchedule.cpp)
  void emitSchedule(const Op &op);
  void emitAsyncCopy(const Op &op);
  // Copies by the copy engine (tma-copies; EmitTma.cpp): the tensor maps' parameter names
  // (in map order), the mask parameter saying which the launcher encoded, and for each
  // mbarrier ring the flag saying whether any of its stages is filled by TMA.
  std::vector<std::string> tmaMapNames_;
  std::string tmaLiveName_;
  std::string programsName_; // a persistent kernel's argument: the programs the grid asks for
  std::map<int, std::string> ringInUse_;        // by the mbarrier ring's value id
  std::map<int, std::string> tmaOnly_;          // ... and whether TMA fills all its stages
  std::map<const Op *, std::string> byTma_;     // by tma_copy: its stages are TMA's
  bool inProducer_ = false; // emitting the producer thread's code (warp-specialize)
  void nameTmaMaps();
  std::string tmaParams() const;
  std::string mapLive(int bit) const;
  void emitTma(const Op &op);
  std::string tmaLoadCall(const Op &op, const Value *dst, const std::string &map, size_t at,
                          const Value *bars, const Value *stage);
  void emitRegion(const Region &r);
  std::string nested(const Region &r, const std::function<void()> &after);
  void declareCarried(const Op &op, size_t firstInit);
  bool keepsInitArray(const Op &op, size_t firstInit, size_t i) const;
  void assignYields(const Op &op, const Region &r, size_t firstInit);
  const std::string &nameOf(const Value *v) {
    auto it = storage_.find(v->id);
    return it != storage_.end() ? it->second : names_.of(v);
  }
  std::string arrayArg(const Value *v, const std::string &i) {
    return v->type.isTile() ? "&" + nameOf(v) + "[" + i + "]" : elem(v, i);
  }
};

} // namespace emit
} // namespace tilec
