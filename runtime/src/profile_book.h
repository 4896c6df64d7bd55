// profile_book.h - the profiler's tallies per specialization, and the table they print as.
// No GPU here: profile.cpp feeds it launches and finished timings.
#pragma once

#include <tilec/profile.h>

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace tilec::detail {

class ProfileBook {
public:
  /// The row of `kernel` on `arch`, made on first use; rows keep their index.
  size_t row(const std::string &kernel, const std::string &arch);
  void launched(size_t row) { rows_[row].launches++; }
  void timed(size_t row, double ms) {
    rows_[row].timed++;
    rows_[row].total_ms += ms;
  }
  /// What the specialization was compiled to (KernelProfile::registers, local_bytes).
  void resources(size_t row, int registers, int local_bytes) {
    rows_[row].registers = registers;
    rows_[row].local_bytes = local_bytes;
  }
  bool has_resources(size_t row) const { return rows_[row].registers >= 0; }
  void clear();
  /// The rows, the largest estimated GPU time first (ties: by name).
  std::vector<KernelProfile> sorted() const;

private:
  std::vector<KernelProfile> rows_;
  std::unordered_map<std::string, size_t> index_;
};

/// `rows` as a fixed-width table: specialization, arch, registers and local bytes per thread
/// ("-" where unknown), launches, timed, mean µs, estimated total ms, share of the total; a
/// last line sums the estimates.
std::string format_profile_table(const std::vector<KernelProfile> &rows);

} // namespace tilec::detail
