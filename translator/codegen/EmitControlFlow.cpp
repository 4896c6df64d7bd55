// Structured control flow: carried variables, for, while and if.
#include "codegen/KernelEmitter.h"

#include <algorithm>

namespace tilec {
namespace emit {

/// Whether every branch of If `op` gives carried variable i a new value: its value before the
/// `if` is then never read, and the variable needs no copy of it.
static bool everyBranchAssigns(const Op &op, size_t firstInit, size_t i) {
  if (op.kind != OpKind::If)
    return false;
  for (auto &r : op.regions)
    if (i >= r->yields.size() || r->yields[i] == op.operands[firstInit + i])
      return false;
  return true;
}

/// Uses of `v` inside region `r` (operands of its ops, nested regions, yields).
static int usesIn(const Region &r, const Value *v) {
  int n = 0;
  for (auto &op : r.ops) {
    n += int(std::count(op->operands.begin(), op->operands.end(), v));
    for (auto &sub : op->regions)
      n += usesIn(*sub, v);
  }
  return n + int(std::count(r.yields.begin(), r.yields.end(), v));
}

/// Whether `op`'s carried variable i can be its initial value's own array: a register tile
/// made by an op of the same region that nothing reads after `op`. An if's branches may read
/// it (they write the variable only at their ends); a loop's body may not (the next iteration
/// would read the updated variable). A copy would only give the same tile a second name.
bool KernelEmitter::keepsInitArray(const Op &op, size_t firstInit, size_t i) const {
  const Value *init = op.operands[firstInit + i];
  const Value *result = op.results[i];
  if ((init->def && init->def->kind == OpKind::Param) || !init->type.isTile() ||
      init->type.shared || !materialized(init) || init->layout != result->layout ||
      init->type.cudaElem() != result->type.cudaElem())
    return false;
  // Made in this region: an op's result, or what an earlier if or loop carried out.
  if (std::none_of(region_->ops.begin(), region_->ops.end(), [&](const std::unique_ptr<Op> &o) {
        return o.get() == init->def ||
               std::count(o->results.begin(), o->results.end(), init) > 0;
      }))
    return false;
  if (std::count(op.operands.begin(), op.operands.end(), init) != 1)
    return false;
  int inside = 0;
  for (auto &r : op.regions)
    inside += usesIn(*r, init);
  // Reads by the ops before `op` have happened by the time it writes the variable.
  int before = 0;
  for (auto &o : region_->ops) {
    if (o.get() == &op)
      break;
    before += int(std::count(o->operands.begin(), o->operands.end(), init));
    for (auto &sub : o->regions)
      before += usesIn(*sub, init);
  }
  return init->uses == 1 + inside + before && (op.kind == OpKind::If || inside == 0);
}

/// Declares the variables that hold `op`'s carried values, initialized from its operands
/// (except where every branch of an `if` assigns them, or the variable is its initial value's
/// own array).
void KernelEmitter::declareCarried(const Op &op, size_t firstInit) {
  for (size_t i = 0; i < op.results.size(); ++i) {
    const Value *init = op.operands[firstInit + i];
    const bool inPlace = keepsInitArray(op, firstInit, i);
    const std::string name = inPlace ? nameOf(init) : names_.fresh(op.carriedNames[i]);
    storage_[op.results[i]->id] = name;
    const size_t arg = i + (op.kind == OpKind::For ? 1 : 0); // after a loop's index
    for (auto &r : op.regions)
      if (r->args.size() > arg)
        storage_[r->args[arg]->id] = name;
    if (inPlace) {
      inPlace_.insert(op.results[i]->id);
      continue; // declared and holding the initial value already
    }
    const bool assigned = everyBranchAssigns(op, firstInit, i);
    const Type &t = init->type;
    if (t.isScalar()) {
      *out_ << "  " << t.cudaElem() << " " << name;
      if (!assigned)
        *out_ << " = " << elem(init, "0");
      *out_ << ";\n";
    } else {
      std::string L = layoutName(init->layout);
      *out_ << "  " << t.cudaElem() << " " << name << "[" << L << "::ELEMS];\n";
      if (assigned)
        continue;
      *out_ << "#pragma unroll\n";
      *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << name
            << "[i] = " << elem(init, "i") << ";\n";
    }
  }
}

/// Copies what region `r` yields into the carried variables.
void KernelEmitter::assignYields(const Op &op, const Region &r, size_t firstInit) {
  // A yield that is another carried variable (a swap) is read before anything is written.
  std::vector<std::string> sources(r.yields.size());
  bool staged = false;
  for (size_t i = 0; i < r.yields.size(); ++i) {
    const Value *y = r.yields[i];
    if (nameOf(y) == nameOf(op.results[i]) || y == op.operands[firstInit + i])
      continue; // unchanged
    bool otherCarried = false;
    for (size_t j = 0; j < op.results.size(); ++j)
      otherCarried |= j != i && nameOf(y) == nameOf(op.results[j]);
    if (otherCarried && !staged) {
      staged = true;
    }
    sources[i] = "y";
  }
  // A carried variable that is its initial value's array (keepsInitArray) may be read by
  // another yield computed in place (not held in a variable of its own): with more than one
  // assignment, every yield is read before anything is written.
  size_t changed = 0;
  bool inPlace = false, computed = false;
  for (size_t i = 0; i < r.yields.size(); ++i) {
    if (sources[i].empty())
      continue;
    ++changed;
    inPlace |= inPlace_.count(op.results[i]->id) > 0;
    const Value *y = r.yields[i];
    computed |= y->def && !materialized(y) && !storage_.count(y->id) &&
                y->def->kind != OpKind::Param && y->def->kind != OpKind::Constant;
  }
  staged |= changed > 1 && inPlace && computed;
  std::vector<std::string> from(r.yields.size());
  for (size_t i = 0; i < r.yields.size(); ++i) {
    if (sources[i].empty())
      continue;
    const Value *y = r.yields[i];
    from[i] = nameOf(y);
    if (staged) {
      std::string tmp = names_.fresh(op.carriedNames[i] + "_next");
      if (y->type.isScalar()) {
        *out_ << "  const " << y->type.cudaElem() << " " << tmp << " = " << elem(y, "0") << ";\n";
      } else {
        std::string L = layoutName(y->layout);
        *out_ << "  " << y->type.cudaElem() << " " << tmp << "[" << L << "::ELEMS];\n";
        *out_ << "#pragma unroll\n";
        *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << tmp
              << "[i] = " << elem(y, "i") << ";\n";
      }
      from[i] = tmp;
    }
  }
  for (size_t i = 0; i < r.yields.size(); ++i) {
    if (sources[i].empty())
      continue;
    const Value *y = r.yields[i];
    const std::string &to = nameOf(op.results[i]);
    if (y->type.isScalar()) {
      *out_ << "  " << to << " = " << (staged ? from[i] : elem(y, "0")) << ";\n";
    } else {
      std::string L = layoutName(y->layout);
      *out_ << "#pragma unroll\n";
      *out_ << "  for (int i = 0; i < " << L << "::ELEMS; ++i) " << to
            << "[i] = " << (staged ? from[i] + "[i]" : elem(y, "i")) << ";\n";
    }
  }
}

void KernelEmitter::emitFor(const Op &op) {
  comment(op);
  declareCarried(op, 3);
  const Region &body = *op.regions[0];
  std::string iv = names_.fresh(body.args[0]->name.empty() ? "k" : body.args[0]->name);
  storage_[body.args[0]->id] = iv;
  std::string lo = elem(op.operands[0], "0"), hi = elem(op.operands[1], "0"),
              step = elem(op.operands[2], "0");
  if (op.unrolled)
    *out_ << "#pragma unroll\n";
  else if (op.rolled)
    *out_ << "#pragma unroll 1\n";
  else if (!op.unrollFactor.isConst(0)) // the loop_unroll_factor option
    *out_ << "#pragma unroll " << op.unrollFactor.operand() << "\n";
  *out_ << "  for (" << body.args[0]->type.cudaElem() << " " << iv << " = " << lo << "; " << iv
        << " " << op.opcode << " " << hi << "; " << iv << " += " << step << ") {\n";
  *out_ << nested(body, [&] { assignYields(op, body, 3); });
  *out_ << "  }\n";
}

void KernelEmitter::emitWhile(const Op &op) {
  comment(op);
  declareCarried(op, 0);
  const Region &cond = *op.regions[0];
  const Region &body = *op.regions[1];
  // The condition is computed at the top of each iteration from the carried values.
  *out_ << "  while (true) {\n";
  *out_ << nested(cond, [&] { *out_ << "  if (!" << elem(cond.yields[0], "0") << ") break;\n"; });
  *out_ << nested(body, [&] { assignYields(op, body, 0); });
  *out_ << "  }\n";
}

void KernelEmitter::emitIf(const Op &op) {
  comment(op);
  size_t firstInit = op.constexprCond.empty() ? 1 : 0;
  declareCarried(op, firstInit);
  std::string cond = op.constexprCond.empty() ? elem(op.operands[0], "0") : op.constexprCond;
  *out_ << "  if " << (op.constexprCond.empty() ? "" : "constexpr ") << "(" << cond << ") {\n";
  // The producer thread's branch: its mbarrier operations need no guard (EmitTma.cpp).
  const Op *condDef = op.constexprCond.empty() ? op.operands[0]->def : nullptr;
  bool producer = condDef && condDef->kind == OpKind::ProducerThread;
  inProducer_ |= producer;
  *out_ << nested(*op.regions[0], [&] { assignYields(op, *op.regions[0], firstInit); });
  if (producer)
    inProducer_ = false;
  std::string elseText =
      nested(*op.regions[1], [&] { assignYields(op, *op.regions[1], firstInit); });
  if (elseText.find_first_not_of(" \n") != std::string::npos)
    *out_ << "  } else {\n" << elseText;
  *out_ << "  }\n";
}

} // namespace emit
} // namespace tilec
