// Elements picked by their position along an axis (tl::flip, tl::gather) or counted by value
// (tl::histogram): each a call into templates/tilec/device/common/gather.cuh or
// histogram.cuh that goes through the shared scratch buffer.
#include "codegen/KernelEmitter.h"

namespace tilec {
namespace emit {

namespace {

/// "[A, B, C]" of a shape.
std::string shapeText(const std::vector<SymExpr> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + shape[i].str();
  return s + "]";
}

/// The distance in row-major order between consecutive elements along `axis`: the product of
/// the later dimensions.
SymExpr innerStride(const std::vector<SymExpr> &shape, int axis) {
  SymExpr p(1);
  for (size_t d = size_t(axis) + 1; d < shape.size(); ++d)
    p = p * shape[d];
  return p;
}

} // namespace

void KernelEmitter::emitFlip(const Op &op) {
  comment(op);
  const Value *in = op.operands[0];
  const Value *r = op.result;
  const int axis = int(op.attrs[0].value());
  const auto &shape = in->type.shape;
  std::string T = r->type.cudaElem(), from = layoutOf(in), to = layoutOf(r);
  needSmem("tilec::tile_elements<" + from + ">() * sizeof(" + T + ")");
  *out_ << "  // " << nameOf(in) << " reversed along axis " << axis << " of " << shapeText(shape)
        << ", through shared memory\n";
  *out_ << "  " << T << " " << nameOf(r) << "[" << to << "::ELEMS];\n";
  *out_ << "  tilec::flip<" << from << ", " << to << ", " << shape[size_t(axis)].str() << ", "
        << innerStride(shape, axis).str() << ">(" << nameOf(in) << ", " << nameOf(r)
        << ", tid, smem);\n";
}

void KernelEmitter::emitSort(const Op &op) {
  comment(op);
  const Value *in = op.operands[0];
  const Value *r = op.result;
  const int axis = int(op.attrs[0].value());
  const auto &s = in->type.shape;
  const SymExpr &n = s[size_t(axis)], &m = r->type.shape[size_t(axis)];
  std::string T = r->type.cudaElem(), from = layoutOf(in), to = layoutOf(r);
  std::string descending = op.attrs[1].isConst() ? (op.attrs[1].value() ? "true" : "false")
                                                 : "bool(" + op.attrs[1].str() + ")";
  needSmem("tilec::tile_elements<" + from + ">() * sizeof(" + T + ")");
  *out_ << "  // " << nameOf(in) << " " << shapeText(s) << " sorted along axis " << axis
        << (m.sameAs(n) ? "" : ", the first " + m.str() + " of each line kept")
        << ", by a sorting network in shared memory\n";
  *out_ << "  " << T << " " << nameOf(r) << "[" << to << "::ELEMS];\n";
  *out_ << "  tilec::sort_lines<" << from << ", " << to << ", " << n.str() << ", " << m.str()
        << ", " << innerStride(s, axis).str() << ", " << descending << ", THREADS>("
        << nameOf(in) << ", " << nameOf(r) << ", tid, smem);\n";
}

void KernelEmitter::emitGather(const Op &op) {
  comment(op);
  const Value *src = op.operands[0], *idx = op.operands[1];
  const Value *r = op.result;
  const int axis = int(op.attrs[0].value());
  const auto &s = src->type.shape, &x = idx->type.shape;
  std::string T = r->type.cudaElem(), from = layoutOf(src), to = layoutOf(r);
  needSmem("tilec::tile_elements<" + from + ">() * sizeof(" + T + ")");
  *out_ << "  // " << nameOf(src) << " " << shapeText(s) << " read along axis " << axis
        << " at the positions " << nameOf(idx) << " " << shapeText(x)
        << " holds, through shared memory\n";
  *out_ << "  " << T << " " << nameOf(r) << "[" << to << "::ELEMS];\n";
  *out_ << "  tilec::gather<" << from << ", " << to << ", " << s[size_t(axis)].str() << ", "
        << x[size_t(axis)].str() << ", " << innerStride(s, axis).str() << ">(" << nameOf(src)
        << ", " << nameOf(idx) << ", " << nameOf(r) << ", tid, smem);\n";
}

void KernelEmitter::emitHistogram(const Op &op) {
  comment(op);
  const Value *x = op.operands[0];
  const Value *r = op.result;
  const SymExpr &bins = r->type.shape[0];
  std::string to = layoutOf(r);
  needSmem("sizeof(int) * " + bins.operand());
  *out_ << "  // histogram of " << nameOf(x);
  if (op.operands.size() > 1)
    *out_ << " where " << nameOf(op.operands[1]) << " holds";
  std::string last = bins.isConst() ? std::to_string(bins.value() - 1) : bins.str() + " - 1";
  *out_ << ": how many elements equal each of 0 .. " << last
        << ", counted with shared-memory atomics\n";
  *out_ << "  int " << nameOf(r) << "[" << to << "::ELEMS];\n";
  *out_ << "  tilec::histogram<" << layoutOf(x) << ", " << to << ", " << bins.str() << ", THREADS>("
        << nameOf(x) << ", ";
  if (op.operands.size() > 1)
    *out_ << nameOf(op.operands[1]) << ", ";
  *out_ << nameOf(r) << ", tid, smem);\n";
}

} // namespace emit
} // namespace tilec
