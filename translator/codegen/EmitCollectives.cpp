// Operations where threads cooperate: reductions, scans, and elements moving between
// threads (layout conversions, transposes, reshapes) through shared memory.
#include "codegen/KernelEmitter.h"
#include "transforms/FuseArgReductions.h"

namespace tilec {
namespace emit {

/// The combine function of a reduction or scan as a C++ expression: a functor of the device
/// library for the built-in ones, else a named lambda [&](T a, T b) { ...; return y; } written
/// from the op's combine region.
std::string KernelEmitter::combiner(const Op &op, const std::string &elemType) {
  if (op.opcode == "sum" || op.opcode == "cumsum")
    return "tilec::SumOp{}";
  if (op.opcode == "max")
    return "tilec::MaxOp{}";
  if (op.opcode == "min")
    return "tilec::MinOp{}";
  if (op.opcode == "xor_sum")
    return "tilec::XorOp{}";
  if (op.opcode == "first") // tl::split: the elements at index 0 and 1 of the last axis
    return "tilec::FirstOp{}";
  if (op.opcode == "last")
    return "tilec::LastOp{}";
  if (op.opcode == "cumprod")
    return "tilec::ProdOp{}"; // (a lambda could not appear in decltype before C++20)
  const Region &r = *op.regions[0];
  std::string name = names_.fresh("combine");
  std::string a = nameOf(r.args[0]), b = nameOf(r.args[1]);
  *out_ << "  auto " << name << " = [&](" << elemType << " " << a << ", " << elemType << " " << b
        << ") {\n";
  *out_ << nested(r, [&] { *out_ << "  return " << elem(r.yields[0], "0") << ";\n"; });
  *out_ << "  };\n";
  return name;
}

void KernelEmitter::emitReduce(const Op &op) {
  comment(op);
  const Value *in = op.operands[0];
  const Value *r = op.result;
  std::string L = layoutOf(in), arr = nameOf(in), T = r->type.cudaElem(), name = nameOf(r);
  // Rank-3 layouts, and tl::split (whose combine needs index order), reduce an axis through
  // shared memory rather than with shuffles.
  bool viaSmem = r->type.isTile() &&
                 (rank3Axes(k_, in->layout) || op.opcode == "first" || op.opcode == "last");
  if (op.opcode == "argmax" || op.opcode == "argmin") {
    // NaNs are ignored, as by tl::max / tl::min (and the interpreter).
    std::string isMax = op.opcode == "argmax" ? "true" : "false", inT = in->type.cudaElem();
    if (r->type.isScalar()) {
      *out_ << "  const int " << name << " = tilec::arg_reduce_tile<" << L << ", " << isMax << ", "
            << inT << ", /*NAN_WINS=*/false>(" << arr << ", tid, smem);\n";
      return;
    }
    // Indices along one dimension of a rank-2 tile, held in the slice layout.
    std::string dim = op.attrs[0].str();
    if (viaSmem) {
      needSmem("tilec::tile_elements<" + L + ">() * sizeof(" + inT + ")");
      *out_ << "  int " << name << "[" << layoutOf(r) << "::ELEMS];\n";
      *out_ << "  tilec::arg_reduce_axis_smem<" << L << ", " << dim << ", " << isMax << ", " << inT
            << ", /*NAN_WINS=*/false>(" << arr << ", " << name << ", tid, smem);\n";
      return;
    }
    needSmem("tilec::arg_axis_scratch_bytes<" + L + ", " + dim + ", " + inT + ">()");
    // A max (min) of the same tile fused with this one (fuse-arg-reductions) gets the
    // winners' values from the same pass.
    auto fused = fusedMax_.find(r->id);
    const Op *withValues = fused == fusedMax_.end() ? nullptr : fused->second;
    // The values in the tile's type; a promoted max (a half tile's is float) converts them.
    std::string values;
    bool promoted = false;
    if (withValues) {
      values = nameOf(withValues->result);
      promoted = withValues->result->type.cudaElem() != inT;
      if (promoted) {
        *out_ << "  " << withValues->result->type.cudaElem() << " " << values << "["
              << layoutOf(r) << "::ELEMS];\n";
        values = names_.fresh(values + "_in");
      }
      *out_ << "  " << inT << " " << values << "[" << layoutOf(r) << "::ELEMS];\n";
    }
    *out_ << "  int " << name << "[" << layoutOf(r) << "::ELEMS];\n";
    *out_ << "  tilec::arg_reduce_axis<" << L << ", " << dim << ", " << isMax << ", " << inT
          << ", /*NAN_WINS=*/false>(" << arr << ", " << name << ", tid, smem"
          << (withValues ? ", " + values : "") << ");\n";
    if (promoted) {
      *out_ << "#pragma unroll\n";
      *out_ << "  for (int i = 0; i < " << layoutOf(r) << "::ELEMS; ++i) "
            << nameOf(withValues->result) << "[i] = tilec::cast<"
            << withValues->result->type.cudaElem() << ">(" << values << "[i]);\n";
    }
    return;
  }
  if (const Value *arg = fusedArgReduction(op)) {
    *out_ << "  // " << name << ": the values " << nameOf(arg) << " found, above\n";
    return;
  }
  std::string fn = combiner(op, in->type.cudaElem());
  if (r->type.isScalar()) {
    *out_ << "  const " << T << " " << name << " = tilec::reduce_tile<" << L << ">(" << arr << ", "
          << fn << ", tid, smem);\n";
    return;
  }
  // One dimension of a rank-2 tile: the result is held in the slice layout.
  std::string dim = op.attrs[0].str();
  if (viaSmem) {
    needSmem("tilec::tile_elements<" + L + ">() * sizeof(" + T + ")");
    *out_ << "  " << T << " " << name << "[" << layoutOf(r) << "::ELEMS];\n";
    *out_ << "  tilec::reduce_axis_smem<" << L << ", " << dim << ">(" << arr << ", " << name << ", "
          << fn << ", tid, smem);\n";
    return;
  }
  // A tl::dot result is reduced in the tensor cores' layout: quad shuffles, and shared memory
  // only when several warps split the reduced dimension.
  bool mma = k_.layouts[size_t(in->layout)].kind == Layout::Kind::Mma;
  std::string fnName = mma ? "reduce_axis_mma" : "reduce_axis";
  needSmem("tilec::" + std::string(mma ? "mma_" : "") + "axis_scratch_bytes<" + L + ", " + dim +
           ", " + T + ">()");
  *out_ << "  " << T << " " << name << "[" << layoutOf(r) << "::ELEMS];\n";
  *out_ << "  tilec::" << fnName << "<" << L << ", " << dim << ">(" << arr << ", " << name << ", "
        << fn << ", tid, smem);\n";
}

void KernelEmitter::emitScan(const Op &op) {
  comment(op);
  const Value *r = op.result;
  std::string L = layoutOf(r), name = nameOf(r), T = r->type.cudaElem();
  std::string fn = combiner(op, T);
  *out_ << "  " << T << " " << name << "[" << L << "::ELEMS];\n";
  *out_ << "#pragma unroll\n";
  *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << name
        << "[i] = " << elem(op.operands[0], "i") << ";\n";
  const SymExpr &rev = op.attrs[0]; // a constant or a template parameter
  std::string reverse = rev.isConst(0)  ? ""
                        : rev.isConst() ? ", true"
                                        : ", bool(" + rev.str() + ")";
  std::string dim = op.attrs[1].str();
  if (k_.layouts[size_t(r->layout)].kind != Layout::Kind::Blocked || r->type.shape.size() == 3) {
    // Slices and rank-3 tiles: line by line through shared memory.
    needSmem("tilec::scan_axis_smem_bytes<" + L + ", " + T + ">()");
    *out_ << "  tilec::scan_axis_smem<" << L << ", " << dim << ", THREADS, " << T << ", decltype("
          << fn << ")" << reverse << ">(" << name << ", " << fn << ", tid, smem);\n";
    return;
  }
  if (r->type.shape.size() == 2) { // along one dimension of a rank-2 tile
    needSmem("tilec::scan_axis_bytes<" + L + ", " + dim + ", " + T + ">()");
    *out_ << "  tilec::scan_axis<" << L << ", " << dim << ", " << T << ", decltype(" << fn << ")"
          << reverse << ">(" << name << ", " << fn << ", tid, smem);\n";
    return;
  }
  *out_ << "  tilec::scan_tile<" << L << ", " << T << ", decltype(" << fn << ")" << reverse << ">("
        << name << ", " << fn << ", tid, smem);\n";
}

/// Conversions, transposes and reshapes: elements change threads through shared memory.
void KernelEmitter::emitRelayout(const Op &op) {
  comment(op);
  const Value *in = op.operands[0];
  const Value *r = op.result;
  std::string T = r->type.cudaElem(), name = nameOf(r), from = layoutOf(in), to = layoutOf(r);
  bool rank2 = op.kind == OpKind::ConvertLayout &&
               k_.layouts[size_t(in->layout)].kind != Layout::Kind::Slice &&
               k_.layouts[size_t(r->layout)].kind != Layout::Kind::Slice &&
               r->type.shape.size() == 2;
  // Rank-3 layouts and their slices place elements by their row-major position.
  rank2 |= op.kind == OpKind::ConvertLayout && r->type.shape.size() >= 2 &&
           (rank3Axes(k_, in->layout) || rank3Axes(k_, r->layout));
  if (rank2) {
    // Two layouts of the same [M, N] shape: a reshape that keeps the shape.
    needSmem("tilec::tile_elements<" + from + ">() * sizeof(" + T + ")");
    *out_ << "  // " << nameOf(in) << " moved from layout " << from << " to " << to
          << " through shared memory\n";
    *out_ << "  " << T << " " << name << "[" << to << "::ELEMS];\n";
    *out_ << "  tilec::reshape<" << from << ", " << to << ">(" << nameOf(in) << ", " << name
          << ", tid, smem);\n";
    return;
  }
  if (op.kind == OpKind::ConvertLayout) {
    needSmem(from + "::TILE_SIZE * sizeof(" + T + ")");
    *out_ << "  // " << nameOf(in) << " moved from layout " << from << " to " << to
          << " through shared memory (a register copy where the two place it alike)\n";
    *out_ << "  " << T << " " << name << "[" << to << "::ELEMS];\n";
    *out_ << "  tilec::convert_layout<" << from << ", " << to << ", " << T << ", THREADS>("
          << nameOf(in) << ", " << name << ", tid, smem);\n";
    return;
  }
  if (op.kind == OpKind::Trans && op.attrs.size() == 3) { // tl::permute of a rank-3 tile
    const auto &s = in->type.shape;
    needSmem("tilec::tile_elements<" + from + ">() * sizeof(" + T + ")");
    *out_ << "  // permuted through shared memory: axes <" << op.attrs[0].str() << ", "
          << op.attrs[1].str() << ", " << op.attrs[2].str() << "> of [" << s[0].str() << ", "
          << s[1].str() << ", " << s[2].str() << "]\n";
    *out_ << "  " << T << " " << name << "[" << to << "::ELEMS];\n";
    *out_ << "  tilec::permute<" << from << ", " << to << ", " << s[0].str() << ", " << s[1].str()
          << ", " << s[2].str() << ", " << op.attrs[0].str() << ", " << op.attrs[1].str() << ", "
          << op.attrs[2].str() << ">(" << nameOf(in) << ", " << name << ", tid, smem);\n";
    return;
  }
  bool trans = op.kind == OpKind::Trans;
  needSmem(trans ? "tilec::transpose_bytes<" + from + ", " + T + ">()"
                 : "tilec::tile_elements<" + from + ">() * sizeof(" + T + ")");
  *out_ << "  // " << (trans ? "transposed" : "reshaped") << " through shared memory\n";
  *out_ << "  " << T << " " << name << "[" << to << "::ELEMS];\n";
  *out_ << "  tilec::" << (trans ? "transpose" : "reshape") << "<" << from << ", " << to << ">("
        << nameOf(in) << ", " << name << ", tid, smem);\n";
}

} // namespace emit
} // namespace tilec
