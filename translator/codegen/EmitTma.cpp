// Copies by the copy engine (TMA), as tma-copies wrote them into the IR: the tensor maps the
// kernel receives, the mbarrier ring of a pipelined loop, the copies (each with the cp.async
// copy it replaced, for when the launcher could not encode its map), arrivals and waits.
#include "codegen/KernelEmitter.h"
#include "ir/Rewriter.h"
#include "ir/SpecFacts.h"
#include "transforms/PersistentPrograms.h"

namespace tilec {
namespace emit {

/// Tensor maps are parameters `<base>_map`, in map order, then `tma_maps_live`; a persistent
/// kernel's `programs` (the grid's x) comes last.
void KernelEmitter::nameTmaMaps() {
  walk(k_, [&](const Op &op) {
    if (op.kind == OpKind::TmaMap)
      tmaMapNames_.push_back(names_.fresh(nameOf(op.operands[0]) + "_map"));
  });
  if (!tmaMapNames_.empty())
    tmaLiveName_ = names_.fresh("tma_maps_live");
  if (hasPersistentPrograms(k_))
    programsName_ = names_.fresh("programs");
}

std::string KernelEmitter::tmaParams() const {
  std::string out;
  for (const std::string &n : tmaMapNames_)
    out += ", const __grid_constant__ tilec::TmaMap " + n;
  if (!tmaLiveName_.empty())
    out += ", const unsigned " + tmaLiveName_;
  if (!programsName_.empty())
    out += ", const int " + programsName_;
  return out;
}

/// Whether bit `bit` of the launcher's mask is set: known at compile time in a specialization
/// for launches that encoded every map (all_maps_encoded, ir/SpecFacts.h), so that the copy
/// engine's path is then the only one compiled.
std::string KernelEmitter::mapLive(int bit) const {
  std::string live = "((" + tmaLiveName_ + " >> " + std::to_string(bit) + ") & 1u)";
  return mapsFactBit(k_) >= 0 ? "(" + mapsFactName() + " || " + live + ")" : live;
}

/// The ring a copy's stage belongs to (its stage view's ring).
static const Value *ringOf(const Op &copy) { return copy.operands[0]->def->operands[0]; }

/// The device library's call that copies `op`'s box (its first row and column at operands
/// `at` and `at + 1`, then its matrix in a stacked map if any) into stage `dst`.
std::string KernelEmitter::tmaLoadCall(const Op &op, const Value *dst, const std::string &map,
                                       size_t at, const Value *bars, const Value *stage) {
  bool stacked = op.operands.size() > at + 2;
  std::string out = std::string("tilec::") +
                    (stacked ? "tma_load_stacked_tile<" : "tma_load_tile<") + smemTileType(dst) +
                    ">(" + nameOf(dst) + ", &" + map + ", " + elem(op.operands[at], "0") + ", " +
                    elem(op.operands[at + 1], "0");
  if (stacked)
    out += ", " + elem(op.operands[at + 2], "0");
  return out + ", &" + nameOf(bars) + "[" + elem(stage, "0") + "])";
}

void KernelEmitter::emitTma(const Op &op) {
  switch (op.kind) {
  case OpKind::TmaMap:
    return; // a kernel parameter (tmaParams)
  case OpKind::MbarrierRing: {
    const std::string &bars = nameOf(op.result);
    comment(op);
    *out_ << "  __shared__ unsigned long long " << bars << "[PIPELINE_STAGES];\n";
    // Which stages the copy engine fills: those of a map the launcher could encode, in a
    // layout TMA writes.
    std::vector<std::string> flags;
    std::map<std::pair<int, int>, std::string> byRing; // (ring id, map): the flag
    // A program whose matrix in a stacked map is negative copies without the copy engine.
    const std::string guard = op.operands.empty() ? "" : " && " + elem(op.operands[0], "0");
    walk(k_, [&](const Op &c) {
      if (c.kind != OpKind::TmaCopy || c.operands[3] != op.result)
        return;
      const Value *ring = ringOf(c);
      int map = int(c.attrs[0].value());
      auto key = std::make_pair(ring->id, map);
      if (!byRing.count(key)) {
        std::string flag = names_.fresh(nameOf(ring) + "_by_tma");
        const SymExpr offset = ring->def->attrs.empty() ? SymExpr(0) : ring->def->attrs[0];
        *out_ << "  const bool " << flag << " = tilec::kTmaAvailable && tilec::tma_tile_ok<"
              << smemTileType(ring) << ">(" << offset.str() << ") && " << mapLive(map) << guard
              << ";\n";
        byRing[key] = flag;
        flags.push_back(flag);
      }
      byTma_[&c] = byRing[key];
    });
    std::string inUse = names_.fresh(bars + "_in_use");
    ringInUse_[op.result->id] = inUse;
    auto joined = [&](const char *op) {
      std::string out;
      for (size_t i = 0; i < flags.size(); ++i)
        out += (i ? op : "") + flags[i];
      return out;
    };
    *out_ << "  const bool " << inUse << " = " << joined(" || ") << ";\n";
    // The loop's cp.async waits ask whether every stage is TMA's (tma-copies gives them the
    // ring only when every copy of the loop is a tma_copy).
    bool asked = false;
    walk(k_, [&](const Op &w) {
      asked |= w.kind == OpKind::AsyncWait && !w.operands.empty() && w.operands[0] == op.result;
    });
    if (asked) {
      std::string all = names_.fresh(bars + "_all_tma");
      tmaOnly_[op.result->id] = all;
      *out_ << "  const bool " << all << " = " << joined(" && ") << ";\n";
    }
    *out_ << "  if (" << inUse << ") {\n"
          << "    if (tid == 0) {\n"
          << "      for (int s = 0; s < PIPELINE_STAGES; ++s) tilec::mbarrier_init(&" << bars
          << "[s]);\n"
          << "      tilec::mbarrier_init_done();\n"
          << "    }\n"
          << "    __syncthreads();\n"
          << "  }\n";
    return;
  }
  case OpKind::TmaCopy: {
    const Value *dst = op.operands[0], *bars = op.operands[3], *stage = op.operands[4];
    const std::string &flag = byTma_.at(&op);
    const std::string &map = tmaMapNames_.at(size_t(op.attrs[0].value()));
    std::ostringstream fallback;
    std::ostringstream *saved = out_;
    out_ = &fallback;
    emitAsyncCopy(op);
    out_ = saved;
    *out_ << "  // by the copy engine from " << map << " when " << flag << ", else by cp.async\n"
          << "  if (" << flag << ") {\n"
          << "    if (tid == 0) " << tmaLoadCall(op, dst, map, 5, bars, stage) << ";\n"
          << "  } else {\n"
          << indent(fallback.str()) << "  }\n";
    return;
  }
  case OpKind::MbarrierArrive: {
    const Value *bars = op.operands[0];
    comment(op);
    // The producer thread arrives itself; otherwise thread 0 issued the stage's copies.
    std::string guard = inProducer_ ? "" : "if (" + ringInUse_.at(bars->id) + " && tid == 0) ";
    *out_ << "  " << guard << "tilec::mbarrier_arrive(&" << nameOf(bars) << "["
          << elem(op.operands[1], "0") << "]);\n";
    return;
  }
  case OpKind::MbarrierWait: {
    const Value *bars = op.operands[0];
    comment(op);
    // In the producer and the consumers' loop the ring is always in use.
    auto inUse = ringInUse_.find(bars->id);
    std::string guard = inProducer_ || bars->def->kind == OpKind::FreedRing ||
                                inUse == ringInUse_.end()
                            ? ""
                            : "if (" + inUse->second + ") ";
    *out_ << "  " << guard << "tilec::mbarrier_wait(&" << nameOf(bars) << "["
          << elem(op.operands[1], "0") << "], " << elem(op.operands[2], "0") << ");\n";
    return;
  }
  case OpKind::FreedRing:
    comment(op);
    *out_ << "  __shared__ unsigned long long " << nameOf(op.result) << "[PIPELINE_STAGES];\n";
    // free-stages' ring (it names the loop's): every warp arrives once per round. A producer
    // warpgroup's is initialized with its decision (warp_specialized).
    if (!op.operands.empty())
      *out_ << "  if (tid == 0) {\n"
            << "    for (int s = 0; s < PIPELINE_STAGES; ++s) tilec::mbarrier_init(&"
            << nameOf(op.result) << "[s], NUM_WARPS);\n"
            << "    tilec::mbarrier_init_done();\n"
            << "  }\n"
            << "  __syncthreads();\n";
    return;
  case OpKind::WarpSpecialized: {
    const Value *landed = op.operands[0], *freed = op.operands[1];
    const std::string &flag = nameOf(op.result);
    comment(op);
    *out_ << "  // (threads THREADS ... THREADS + tilec::producer_threads(THREADS) - 1; when every "
             "map is\n"
          << "  // encoded and the launcher allows it, bit 31 of " << tmaLiveName_ << ")\n"
          << "  const bool " << flag << " = tilec::producer_threads(THREADS) > 0 && "
          << tmaOnly_.at(landed->id) << " && " << mapLive(31) << ";\n"
          << "  if (" << flag << ") {\n"
          << "    if (tid == 0) {\n"
          << "      for (int s = 0; s < PIPELINE_STAGES; ++s) tilec::mbarrier_init(&"
          << nameOf(freed) << "[s], NUM_WARPS);\n"
          << "      tilec::mbarrier_init_done();\n"
          << "    }\n"
          << "    __syncthreads();\n"
          << "  }\n";
    return;
  }
  case OpKind::ProducerThread:
    *out_ << "  // " << nameOf(op.result) << ": the producer warpgroup's first thread, which "
          << "issues every copy\n"
          << "  const bool " << nameOf(op.result) << " = " << elem(op.operands[0], "0")
          << " && tid == THREADS;\n";
    return;
  case OpKind::ProducerBranch:
    comment(op);
    *out_ << "  if (tid >= THREADS) {\n"
          << "    tilec::producer_give_registers<THREADS>();\n"
          << nested(*op.regions[0], [] {}) << "    return;\n"
          << "  }\n"
          << "  tilec::consumer_take_registers<THREADS>();\n";
    return;
  case OpKind::TmaLoad: {
    const Value *dst = op.operands[0], *bars = op.operands[1];
    comment(op);
    *out_ << "  "
          << tmaLoadCall(op, dst, tmaMapNames_.at(size_t(op.attrs[0].value())), 3, bars,
                         op.operands[2])
          << ";\n";
    return;
  }
  case OpKind::TmaStore: {
    const Value *val = op.operands[1], *buf = op.operands[3];
    const std::string &map = tmaMapNames_.at(size_t(op.attrs[0].value()));
    const std::string tile = smemTileType(buf);
    const std::string offset = buf->def->attrs.empty() ? "0" : buf->def->attrs[0].str();
    std::string starts;
    for (const Value *v : {op.operands[4], op.operands[5]})
      if (!(defOf(v, OpKind::Constant) && v->def->attrs[0].isConst(0)))
        starts += " && " + elem(v, "0") + " >= 0";
    if (op.operands.size() > 6) // the block runs several programs
      starts += " && " + elem(op.operands[6], "0");
    std::ostringstream fallback;
    std::ostringstream *saved = out_;
    out_ = &fallback;
    emitStore(op);
    out_ = saved;
    const std::string fits = names_.fresh(nameOf(buf) + "_fits");
    // Only in the specialization for launches that encoded every map, where it is known at
    // compile time: elsewhere both epilogues would be compiled in, and their registers with
    // them (a kernel without that fact asks the launcher's bit).
    const std::string live =
        mapsFactBit(k_) >= 0 ? mapsFactName() : mapLive(int(op.attrs[0].value()));
    *out_ << "  // " << nameOf(buf) << " is allocated (it fits beside the stages) in a layout the copy "
          << "engine reads\n"
          << "  constexpr bool " << fits << " = " << op.attrs[1].operand() << " && tilec::tma_tile_ok<"
          << tile << ">(" << offset << ");\n"
          << "  // by the copy engine into " << map << " through " << nameOf(buf)
          << " when every map is encoded and the box starts inside"
          << (op.operands.size() > 6 ? " (and the block runs several programs)" : "")
          << ", else as written\n"
          << "  if (tilec::kTmaAvailable && " << fits << " && " << live << starts << ") {\n"
          << "    tilec::tma_store_tile<" << layoutOf(val) << ", " << tile << ", THREADS>("
          << arrayArg(val, "0") << ", " << nameOf(buf) << ", &" << map << ", "
          << elem(op.operands[4], "0") << ", " << elem(op.operands[5], "0") << ", tid);\n"
          << "  } else {\n"
          << indent(fallback.str()) << "  }\n";
    return;
  }
  case OpKind::TmaStoreDrain:
    *out_ << "  // the copy engine has read the tiles this program stored\n"
          << "  tilec::tma_store_drain(tid);\n";
    return;
  case OpKind::MbarrierRelease:
    comment(op);
    *out_ << "  if (tid % tilec::WARP_SIZE == 0) tilec::mbarrier_arrive(&" << nameOf(op.operands[0])
          << "[" << elem(op.operands[1], "0") << "]);\n";
    return;
  case OpKind::MbarrierInval: {
    const Value *bars = op.operands[0];
    comment(op);
    auto inUse = ringInUse_.find(bars->id); // a freed ring is always initialized
    *out_ << "  if (" << (inUse == ringInUse_.end() ? "" : inUse->second + " && ") << "tid == 0)\n"
          << "    for (int s = 0; s < PIPELINE_STAGES; ++s) tilec::mbarrier_inval(&"
          << nameOf(bars) << "[s]);\n";
    return;
  }
  case OpKind::MbarrierRestart: {
    const Value *bars = op.operands[0];
    const std::string &name = nameOf(bars);
    comment(op);
    *out_ << "  __syncthreads();\n"
          << "  if (" << ringInUse_.at(bars->id) << ") {\n"
          << "    if (tid == 0) {\n"
          << "      for (int s = 0; s < PIPELINE_STAGES; ++s) {\n"
          << "        tilec::mbarrier_inval(&" << name << "[s]);\n"
          << "        tilec::mbarrier_init(&" << name << "[s]);\n"
          << "      }\n"
          << "      tilec::mbarrier_init_done();\n"
          << "    }\n"
          << "    __syncthreads();\n"
          << "  }\n";
    return;
  }
  default:
    return;
  }
}

} // namespace emit
} // namespace tilec
