#include "aot_registry.h"

#include "name_expression.h"

#include <tilec/runtime.h>

#include <bitset>
#include <mutex>
#include <vector>

namespace tilec::detail {
namespace {

struct AotEntry {
  std::string name;   ///< as registered
  std::string prefix; ///< normalized, up to and including the comma before DIV16
  uint64_t mask = 0;
  bool has_mask = false;
  AotResolver resolve = nullptr;
};

struct Registry {
  std::mutex mutex;
  std::vector<AotEntry> entries;
};

// Function-local: registration runs from static initializers of other translation units.
// Never destroyed, so it outlives every static that might still look kernels up.
Registry &registry() {
  static Registry *r = new Registry;
  return *r;
}

int popcount(uint64_t x) { return int(std::bitset<64>(x).count()); }

} // namespace

AotResolver find_aot_kernel(const std::string &name_expression, std::string *chosen) {
  std::string normalized = normalize_name_expression(name_expression);
  std::string prefix;
  uint64_t mask = 0;
  bool has_mask = split_div16(normalized, prefix, mask);

  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const AotEntry *best = nullptr;
  for (const AotEntry &e : r.entries) {
    if (!has_mask || !e.has_mask) {
      if (normalize_name_expression(e.name) == normalized && !best)
        best = &e;
      continue;
    }
    if (e.prefix != prefix || (e.mask & ~mask) != 0)
      continue;
    // More facts is faster code; ties broken by value so the choice is deterministic.
    if (!best || popcount(e.mask) > popcount(best->mask) ||
        (popcount(e.mask) == popcount(best->mask) && e.mask > best->mask))
      best = &e;
  }
  if (best && chosen)
    *chosen = best->name;
  return best ? best->resolve : nullptr;
}

} // namespace tilec::detail

namespace tilec {

void register_aot_kernel(const char *name_expression, void *(*resolve)()) {
  if (!name_expression || !resolve)
    return;
  detail::AotEntry e;
  e.name = name_expression;
  e.has_mask = detail::split_div16(detail::normalize_name_expression(e.name), e.prefix, e.mask);
  e.resolve = resolve;
  detail::Registry &r = detail::registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto &existing : r.entries)
    if (existing.name == e.name)
      return; // the same translation unit linked twice registers the same kernel
  r.entries.push_back(std::move(e));
}

} // namespace tilec
