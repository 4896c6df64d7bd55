#include "profile_book.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace tilec::detail {

size_t ProfileBook::row(const std::string &kernel, const std::string &arch) {
  const std::string id = kernel + '\n' + arch;
  auto it = index_.find(id);
  if (it != index_.end())
    return it->second;
  KernelProfile p;
  p.kernel = kernel;
  p.arch = arch;
  rows_.push_back(p);
  index_.emplace(id, rows_.size() - 1);
  return rows_.size() - 1;
}

void ProfileBook::clear() {
  rows_.clear();
  index_.clear();
}

std::vector<KernelProfile> ProfileBook::sorted() const {
  std::vector<KernelProfile> out = rows_;
  std::stable_sort(out.begin(), out.end(), [](const KernelProfile &a, const KernelProfile &b) {
    if (a.estimated_ms() != b.estimated_ms())
      return a.estimated_ms() > b.estimated_ms();
    return a.kernel < b.kernel;
  });
  return out;
}

std::string format_profile_table(const std::vector<KernelProfile> &rows) {
  double total = 0;
  size_t width = 14; // "specialization"
  for (const KernelProfile &r : rows) {
    total += r.estimated_ms();
    width = std::max(width, r.kernel.size());
  }
  width = std::min<size_t>(width, 100); // longer names are cut, with "..."
  auto name_of = [&](const std::string &k) {
    return k.size() <= width ? k : k.substr(0, width - 3) + "...";
  };
  std::string out;
  char line[512];
  auto count = [](int v) { return v < 0 ? std::string("-") : std::to_string(v); };
  std::snprintf(line, sizeof line, "%-*s  %-7s %5s %7s %10s %8s %11s %12s %6s\n", int(width),
                "specialization", "arch", "regs", "local B", "launches", "timed", "mean us",
                "total ms", "share");
  out += line;
  for (const KernelProfile &r : rows) {
    const double share = total > 0 ? 100.0 * r.estimated_ms() / total : 0.0;
    std::snprintf(line, sizeof line, "%-*s  %-7s %5s %7s %10llu %8llu %11.2f %12.3f %5.1f%%\n",
                  int(width), name_of(r.kernel).c_str(), r.arch.c_str(),
                  count(r.registers).c_str(), count(r.local_bytes).c_str(),
                  (unsigned long long)r.launches, (unsigned long long)r.timed, r.mean_us(),
                  r.estimated_ms(), share);
    out += line;
  }
  std::snprintf(line, sizeof line, "%-*s  %-7s %5s %7s %10s %8s %11s %12.3f\n", int(width),
                "total", "", "", "", "", "", "", total);
  out += line;
  return out;
}

} // namespace tilec::detail
