#include "ir/SpecFacts.h"

#include <algorithm>
#include <cctype>

namespace tilec {

namespace {

/// Whether `text` holds `word` as a whole identifier.
bool mentions(const std::string &text, const std::string &word) {
  auto ident = [](char c) { return std::isalnum((unsigned char)c) || c == '_'; };
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    bool before = at > 0 && ident(text[at - 1]);
    bool after = at + word.size() < text.size() && ident(text[at + word.size()]);
    if (!before && !after)
      return true;
  }
  return false;
}

} // namespace

std::string oneFactName(const KernelParam &p) { return p.name + "_is_1"; }

namespace {

/// Every `if constexpr` condition of the kernel, one after another.
std::string constexprConditions(const Kernel &k) {
  std::string conditions;
  walk(k, [&](const Op &op) {
    if (!op.constexprCond.empty())
      conditions += op.constexprCond + " ";
  });
  return conditions;
}

bool isIntegerParam(const Kernel &k, size_t i) {
  return !k.params[i].type.pointer && k.params[i].type.elem.isInteger();
}

/// Whether the kernel's conditions ask about argument i's equals-1 fact.
bool askedAbout(const Kernel &k, const std::string &conditions, size_t i) {
  return isIntegerParam(k, i) && mentions(conditions, oneFactName(k.params[i]));
}

/// Each argument's equals-1 bit, or -1. Only the facts the kernel asks about have bits,
/// numbered among themselves in argument order past the arguments' own: Mamba's 34 integers
/// would not fit past its 45 arguments, the strides its copies test do. Passes make sure
/// they fit (roomForOneFacts).
std::vector<int> oneFactBits(const Kernel &k) {
  const std::string conditions = constexprConditions(k);
  std::vector<int> bits(k.params.size(), -1);
  size_t bit = std::min(k.params.size(), kDiv16ArgBits);
  for (size_t i = 0; i < k.params.size(); ++i)
    if (askedAbout(k, conditions, i) && bit < kDiv16ArgBits)
      bits[i] = int(bit++);
  return bits;
}

} // namespace

bool roomForOneFacts(const Kernel &k, const std::vector<size_t> &params) {
  const std::string conditions = constexprConditions(k);
  size_t facts = 0;
  for (size_t j = 0; j < k.params.size(); ++j) {
    bool added = std::find(params.begin(), params.end(), j) != params.end();
    if (added && !isIntegerParam(k, j))
      return false;
    facts += askedAbout(k, conditions, j) || added ? 1 : 0;
  }
  return std::min(k.params.size(), kDiv16ArgBits) + facts <= kDiv16ArgBits;
}

uint64_t specFactBitsIn(const Kernel &k, const std::string &condition) {
  const std::vector<int> bits = oneFactBits(k);
  uint64_t out = 0;
  for (size_t i = 0; i < k.params.size(); ++i)
    if (bits[i] >= 0 && mentions(condition, oneFactName(k.params[i])))
      out |= uint64_t(1) << bits[i];
  return out;
}

std::string mapsFactName() { return "all_maps_encoded"; }

int mapsFactBit(const Kernel &k) {
  bool maps = false;
  walk(k, [&](const Op &op) { maps |= op.kind == OpKind::TmaMap; });
  return maps ? int(kDiv16ArgBits) : -1;
}

std::string gridFactName(int axis) { return std::string("grid_") + "xyz"[axis] + "_is_1"; }

int gridFactBit(int axis) { return int(kDiv16ArgBits) + axis; }

std::vector<SpecFact> usedSpecFacts(const Kernel &k) {
  bool gridAxis[3] = {false, false, false};
  walk(k, [&](const Op &op) {
    if (op.kind == OpKind::ProgramId && op.zeroIfGridOne && op.axis > 0 && op.axis < 3)
      gridAxis[op.axis] = true;
  });
  std::vector<SpecFact> out;
  const std::vector<int> bits = oneFactBits(k);
  for (size_t i = 0; i < k.params.size(); ++i)
    if (bits[i] >= 0)
      out.push_back({bits[i], oneFactName(k.params[i]), int(i), 0});
  if (int bit = mapsFactBit(k); bit >= 0)
    out.push_back({bit, mapsFactName(), -1, 0, true});
  for (int axis = 1; axis < 3; ++axis)
    if (gridAxis[axis])
      out.push_back({gridFactBit(axis), gridFactName(axis), -1, axis});
  return out;
}

} // namespace tilec
