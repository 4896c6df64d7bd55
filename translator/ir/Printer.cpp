// Textual form of the tile IR, one op per line (ir/Parser.cpp reads it back):
//   %3:offs = binary "+" %1, %2 : tile<int, BLOCK>  {contig=BLOCK div=... const=1}
#include "ir/IR.h"
#include "ir/PrintedForm.h"

#include <algorithm>
#include <sstream>

namespace tilec {

static std::string ref(const Value *v) {
  return "%" + std::to_string(v->id) + (v->name.empty() ? "" : ":" + v->name);
}

static void printOp(std::ostringstream &os, const Kernel &k, const Op &op,
                    const std::string &indent);

static void printRegion(std::ostringstream &os, const Kernel &k, const Region &r,
                        const std::string &indent) {
  if (!r.args.empty()) {
    os << indent << "^(";
    for (size_t i = 0; i < r.args.size(); ++i)
      os << (i ? ", " : "") << ref(r.args[i]) << " : " << r.args[i]->type.str()
         << valueAnnotations(k, *r.args[i]);
    os << ")\n";
  }
  for (auto &op : r.ops)
    printOp(os, k, *op, indent);
  if (!r.yields.empty()) {
    os << indent << "yield";
    for (size_t i = 0; i < r.yields.size(); ++i)
      os << (i ? ", " : " ") << ref(r.yields[i]);
    os << "\n";
  }
}

static void printOp(std::ostringstream &os, const Kernel &k, const Op &op,
                    const std::string &indent) {
  os << indent;
  if (op.result)
    os << ref(op.result) << " = ";
  for (size_t i = 0; i < op.results.size(); ++i)
    os << (i ? ", " : "") << ref(op.results[i]) << valueAnnotations(k, *op.results[i])
       << (i + 1 == op.results.size() ? " = " : "");
  os << opKindName(op.kind);
  if (!op.opcode.empty())
    os << " " << quoted(op.opcode);
  // Flags and small fields: one table (PrintedForm.cpp) that the parser reads back too.
  for (const OpWord &w : opWords())
    if (std::string token = w.print(k, op); !token.empty())
      os << " " << token;
  for (size_t i = 0; i < op.operands.size(); ++i)
    os << (i ? ", " : " ") << ref(op.operands[i]);
  for (auto &a : op.attrs)
    os << " [" << a.str() << "]";
  if (op.result)
    os << " : " << op.result->type.str();
  if (op.result && op.result->layout >= 0)
    os << " #" << op.result->layout;
  if (op.result && printsAxisInfo(*op.result))
    os << "  " << axisInfoText(*op.result);
  if (op.kind == OpKind::Load || op.kind == OpKind::Store || op.kind == OpKind::AsyncCopy ||
      op.kind == OpKind::TmaCopy ||
      (op.kind == OpKind::Atomic && !op.accessWidth.isConst(1)))
    os << "  {width=" << op.accessWidth.str() << "}";
  os << "\n";
  for (size_t i = 0; i < op.regions.size(); ++i) {
    os << indent << (i == 0 ? "{" : op.kind == OpKind::While ? "} do {" : "} else {") << "\n";
    printRegion(os, k, *op.regions[i], indent + "  ");
  }
  if (!op.regions.empty())
    os << indent << "}\n";
}

std::string printKernel(const Kernel &k) {
  std::ostringstream os;
  os << "kernel @" << k.name << "<";
  for (size_t i = 0; i < k.templateParams.size(); ++i)
    os << (i ? ", " : "") << k.templateParams[i].cppType << " " << k.templateParams[i].name;
  os << ">(";
  for (size_t i = 0; i < k.params.size(); ++i)
    os << (i ? ", " : "") << k.params[i].type.str() << " " << k.params[i].name;
  os << ")\n";
  for (size_t i = 0; i < k.layouts.size(); ++i) {
    const Layout &l = k.layouts[i];
    if (l.kind == Layout::Kind::Slice)
      os << "  layout #" << i << " slice #" << l.parent << " dim=" << l.dim << "\n";
    else if (l.kind == Layout::Kind::Mma)
      os << "  layout #" << i << " mma" << Type{ElemType(), false, false, l.shape}.shapeStr()
         << "\n";
    else
      os << "  layout #" << i << " blocked" << Type{ElemType(), false, false, l.shape}.shapeStr()
         << (l.warpsDown ? " warps_down" : "") << " max_vec=" << l.maxVec.str() << "\n";
  }
  if (!k.dynamicSmemBytes.isConst(0))
    os << "  dynamic_smem [" << k.dynamicSmemBytes.str() << "]\n";
  if (k.tilesTransposed)
    os << "  tiles_transposed\n";
  printRegion(os, k, k.body, "  ");
  return os.str();
}

std::string verifyKernel(const Kernel &k) {
  std::string err;
  walk(k, [&](const Op &op) {
    if (!err.empty())
      return;
    for (Value *v : op.operands)
      if (!v)
        err = std::string("null operand in ") + opKindName(op.kind);
    bool noResult = op.kind == OpKind::Store || op.kind == OpKind::For || op.kind == OpKind::If ||
                    op.kind == OpKind::While || op.kind == OpKind::Return ||
                    op.kind == OpKind::Print || op.kind == OpKind::Assert ||
                    op.kind == OpKind::AsyncCopy || op.kind == OpKind::AsyncCommit ||
                    op.kind == OpKind::AsyncWait || op.kind == OpKind::Barrier ||
                    op.kind == OpKind::SmemTranspose || op.kind == OpKind::StaticAssert ||
                    op.kind == OpKind::TmaMap || op.kind == OpKind::TmaCopy ||
                    op.kind == OpKind::MbarrierArrive || op.kind == OpKind::MbarrierWait ||
                    op.kind == OpKind::MbarrierInval || op.kind == OpKind::MbarrierRestart ||
                    op.kind == OpKind::ProducerBranch || op.kind == OpKind::TmaLoad ||
                    op.kind == OpKind::MbarrierRelease || op.kind == OpKind::DotWait ||
                    op.kind == OpKind::TurnBegin || op.kind == OpKind::TurnEnd ||
                    op.kind == OpKind::TurnsFinish || op.kind == OpKind::PrefetchL2 ||
                    op.kind == OpKind::TmaStore || op.kind == OpKind::TmaStoreDrain;
    if (noResult && op.result)
      err = std::string(opKindName(op.kind)) + " must not produce a single value";
    if (!noResult && !op.result)
      err = std::string(opKindName(op.kind)) + " has no result";
    if ((op.kind == OpKind::Load || op.kind == OpKind::Store) && !op.operands[0]->type.pointer)
      err = std::string(opKindName(op.kind)) + " of a non-pointer";
    if (!op.cache.empty() && !isCacheModifierOf(op.kind, op.cache))
      err = "cache=" + op.cache + " on " + opKindName(op.kind);
    if (op.isVolatile && op.kind != OpKind::Load)
      err = std::string("volatile on ") + opKindName(op.kind);
    // The schedule's shared-memory ops: rings have one rank more than their stages (stages
    // first), buffers are rank 2; copies go from pointer tiles into a stage.
    auto smemOfRank = [](const Value *v, size_t rank) {
      return v->type.shared && v->type.shape.size() == rank;
    };
    // A ring's stages are rank 2 (tl::dot operands) or rank 1 (other loads of the loop).
    auto stageRank = [&](const Value *v) {
      return smemOfRank(v, 1) || smemOfRank(v, 2);
    };
    if (op.kind == OpKind::StageView &&
        (op.operands.size() != 2 || !op.operands[0]->type.shared ||
         !op.operands[1]->type.isScalar() || !op.result || !stageRank(op.result) ||
         op.operands[0]->type.shape.size() != op.result->type.shape.size() + 1))
      err = "stage_view takes a ring (smem, one rank more than a stage) and a scalar stage, and "
            "gives an smem tile";
    if (op.kind == OpKind::StageRead &&
        (op.operands.size() != 1 || !smemOfRank(op.operands[0], 1) || !op.result ||
         op.result->type.shared || !op.result->type.shape.size() ||
         !op.result->type.shape[0].sameAs(op.operands[0]->type.shape[0])))
      err = "stage_read reads a rank-1 smem tile into a register tile of its shape";
    if (op.kind == OpKind::AsyncCopy &&
        (op.operands.size() < 2 || !stageRank(op.operands[0]) ||
         !op.operands[1]->type.pointer || !op.operands[1]->type.isTile()))
      err = "async_copy copies a pointer tile (operand 1) into an smem tile (operand 0)";
    if (op.kind == OpKind::TmaCopy &&
        ((op.operands.size() != 7 && op.operands.size() != 8) || !smemOfRank(op.operands[0], 2) ||
         !op.operands[1]->type.pointer || !op.operands[1]->type.isTile() ||
         !smemOfRank(op.operands[3], 1) || op.attrs.size() != 1))
      err = "tma_copy takes an async copy's stage, pointers and mask, an mbarrier ring, a "
            "stage, a first row and column, optionally a matrix of a stack, and a tensor map's "
            "index";
    if (op.kind == OpKind::TmaMap &&
        ((op.operands.size() != 4 && op.operands.size() != 5) ||
         (op.attrs.size() != 2 && !(op.attrs.size() == 3 && op.attrs[2].isConst(1)))))
      err = "tma_map takes a base, rows, columns, a row stride and optionally a column stride "
            "(an argument that must be 1), and a tile's [rows] [columns], then [1] for a stack "
            "of matrices";
    if ((op.kind == OpKind::MbarrierRing || op.kind == OpKind::FreedRing) &&
        (!op.result || !smemOfRank(op.result, 1) ||
         (op.kind == OpKind::MbarrierRing
              ? op.operands.size() > 1 ||
                    (op.operands.size() == 1 && !op.operands[0]->type.isScalar())
              : op.operands.size() > 1 ||
                    (op.operands.size() == 1 && !smemOfRank(op.operands[0], 1)))))
      err = std::string(opKindName(op.kind)) + " gives an smem value of rank 1";
    if (op.kind == OpKind::Barrier &&
        (op.operands.size() > 1 || (op.operands.size() == 1 && !smemOfRank(op.operands[0], 1))))
      err = "barrier takes nothing, or the mbarrier ring whose copies, when all the copy "
            "engine's, make it unneeded";
    if (op.kind == OpKind::TmaLoad &&
        ((op.operands.size() != 5 && op.operands.size() != 6) || !smemOfRank(op.operands[0], 2) ||
         !smemOfRank(op.operands[1], 1) || op.attrs.size() != 1))
      err = "tma_load takes a stage, an mbarrier ring, a stage index, a first row and column, "
            "optionally a matrix of a stack, and a tensor map's index";
    if (op.kind == OpKind::TmaStore &&
        ((op.operands.size() != 6 && op.operands.size() != 7) || !op.operands[0]->type.pointer ||
         op.operands[0]->type.shape.size() != 2 || !smemOfRank(op.operands[3], 2) ||
         !op.operands[4]->type.isScalar() || !op.operands[5]->type.isScalar() ||
         op.attrs.size() != 2))
      err = "tma_store takes a store's pointers, value and mask, a staging smem_buffer, a first "
            "row and column, optionally a bool (whether to use the copy engine), a tensor map's "
            "index and the condition for the buffer to be there";
    if (op.kind == OpKind::TmaStoreDrain && !op.operands.empty())
      err = "tma_store_drain takes nothing";
    if (op.kind == OpKind::DotWait &&
        (op.operands.empty() ||
         !std::all_of(op.operands.begin(), op.operands.end(), [](const Value *v) {
           return v->def && v->def->kind == OpKind::Dot && v->def->dotNoWait;
         })))
      err = "dot_wait takes the results of tl::dots issued without waiting (nowait)";
    if (op.kind == OpKind::PrefetchL2 &&
        (op.operands.empty() || op.operands.size() > 2 || !op.operands[0]->type.isScalar() ||
         !op.operands[0]->type.pointer ||
         (op.operands.size() == 2 && (!op.operands[1]->type.isScalar() ||
                                      op.operands[1]->type.pointer)) ||
         op.attrs.size() != 2))
      err = "prefetch_l2 takes a scalar pointer and optionally a scalar count, the tile's "
            "element count and the bytes of all the program's prefetched rows";
    if ((op.kind == OpKind::TurnBegin || op.kind == OpKind::TurnEnd ||
         op.kind == OpKind::TurnsFinish) &&
        (op.operands.empty() || !op.operands[0]->def ||
         op.operands[0]->def->kind != OpKind::WarpgroupTurns ||
         (op.kind == OpKind::TurnEnd) != (op.operands.size() > 1) ||
         !std::all_of(op.operands.begin() + 1, op.operands.end(),
                      [](const Value *v) { return v->def && v->def->kind == OpKind::Dot; })))
      err = std::string(opKindName(op.kind)) +
            " takes a warpgroup_turns flag (turn_end: then the tl::dots of the turn)";
    if (op.dotNoWait && op.kind != OpKind::Dot)
      err = std::string("nowait on ") + opKindName(op.kind);
    if (op.dotZeroAcc && op.kind != OpKind::Dot)
      err = std::string("zero_acc on ") + opKindName(op.kind);
    if (op.zeroIfGridOne && (op.kind != OpKind::ProgramId || op.axis < 1 || op.axis > 2))
      err = "zero_if_grid_1 is for tl::program_id(1) and (2)";
    if (op.kind == OpKind::WarpSpecialized &&
        (op.operands.size() != 2 || !smemOfRank(op.operands[0], 1) ||
         !smemOfRank(op.operands[1], 1)))
      err = "warp_specialized takes a loop's mbarrier ring and its freed ring";
    if ((op.kind == OpKind::MbarrierArrive || op.kind == OpKind::MbarrierWait ||
         op.kind == OpKind::MbarrierInval || op.kind == OpKind::MbarrierRestart ||
         op.kind == OpKind::MbarrierRelease) &&
        (op.operands.empty() || !smemOfRank(op.operands[0], 1)))
      err = std::string(opKindName(op.kind)) + " takes an mbarrier ring first";
    if (op.kind == OpKind::SmemTranspose &&
        (op.operands.size() != 2 || !smemOfRank(op.operands[0], 2) ||
         !smemOfRank(op.operands[1], 2) ||
         !op.operands[0]->type.shape[0].sameAs(op.operands[1]->type.shape[1]) ||
         !op.operands[0]->type.shape[1].sameAs(op.operands[1]->type.shape[0])))
      err = "smem_transpose writes an smem tile [K, N] into an smem tile [N, K]";
    if ((op.kind == OpKind::SmemRing &&
         (!op.result || !(smemOfRank(op.result, 2) || smemOfRank(op.result, 3)))) ||
        (op.kind == OpKind::SmemBuffer && (!op.result || !smemOfRank(op.result, 2))))
      err = std::string(opKindName(op.kind)) + " gives an smem value of the wrong rank";
    // Flips and gathers name an axis of their (source) tile; a gather's index has its rank.
    auto axisOk = [&](const Value *v) {
      return op.attrs.size() == 1 && op.attrs[0].isConst() && op.attrs[0].value() >= 0 &&
             size_t(op.attrs[0].value()) < v->type.shape.size();
    };
    if (op.kind == OpKind::Flip &&
        (op.operands.size() != 1 || !op.result || !axisOk(op.operands[0])))
      err = "flip takes one tile and an axis of it";
    if (op.kind == OpKind::Sort &&
        (op.operands.size() != 1 || !op.result || op.attrs.size() != 2 ||
         !op.attrs[0].isConst() || op.attrs[0].value() < 0 ||
         size_t(op.attrs[0].value()) >= op.operands[0]->type.shape.size() ||
         op.result->type.shape.size() != op.operands[0]->type.shape.size()))
      err = "sort takes one tile, an axis of it and whether it sorts descending";
    if (op.kind == OpKind::Gather &&
        (op.operands.size() != 2 || !op.result || !axisOk(op.operands[0]) ||
         op.operands[1]->type.shape.size() != op.operands[0]->type.shape.size()))
      err = "gather takes a source tile, an index tile of its rank and an axis";
    if (op.kind == OpKind::Histogram &&
        (op.operands.empty() || op.operands.size() > 2 || !op.result ||
         op.operands[0]->type.shape.size() != 1 || op.result->type.shape.size() != 1))
      err = "histogram counts a rank-1 tile (and a mask) into a rank-1 tile";
    bool controlFlow = op.kind == OpKind::For || op.kind == OpKind::If;
    for (auto &r : op.regions)
      if ((controlFlow || (op.kind == OpKind::While && r != op.regions[0])) &&
          r->yields.size() != op.results.size())
        err = std::string(opKindName(op.kind)) + " yields " + std::to_string(r->yields.size()) +
              " values for " + std::to_string(op.results.size()) + " results";
  });
  if (err.empty())
    err = verifyValues(k);
  return err;
}

} // namespace tilec
