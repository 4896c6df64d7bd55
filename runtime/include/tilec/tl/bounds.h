// tilec/tl/bounds.h - the interpreter's checked mode, on the kernel side.
//
// A checked launch (tilec::interpret::checked in tilec/checked_launch.h) gives each registered
// buffer a private copy with unused guard zones before and after it, and lists those here.
// Every load, store and atomic calls check_access before it touches an element: an address
// in a buffer's guard zone (past its end or before its start, as a forgotten mask or a wrong
// offset makes) throws tl::out_of_bounds_error naming the kernel source line, the program,
// the lane, the element index and the buffer. Masked-off lanes are never touched, so they
// are never checked. Outside a checked launch the check is one thread-local load.
#pragma once

#include <tilec/tl/program.h>

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <stdexcept>
#include <string>
#include <vector>

namespace tl {

/// What a checked launch throws when a kernel touches an element outside its buffer.
struct out_of_bounds_error : std::out_of_range {
  using std::out_of_range::out_of_range;
};

namespace detail {

/// One registered buffer: its bytes, and the guard zones around them (addresses in
/// [guard_begin, guard_end) that are not in [begin, end) are out of its bounds).
struct checked_region {
  uintptr_t begin = 0, end = 0, guard_begin = 0, guard_end = 0;
  size_t elem_size = 1, count = 0;
  std::string name;
};

/// The running checked launch's buffers; null when no checked launch runs on this thread.
inline const std::vector<checked_region> *&checked_regions() {
  static thread_local const std::vector<checked_region> *regions = nullptr;
  return regions;
}

enum class access { load, store, atomic };

/// "(3, 1)" for flat index f of shape S; "" for a scalar access.
template <class S> std::string lane_text(int f) {
  if constexpr (S::rank == 0) {
    (void)f;
    return "";
  } else {
    int idx[S::rank > 0 ? S::rank : 1] = {};
    for (int a = S::rank - 1; a >= 0; f /= S::value[a], --a)
      idx[a] = f % S::value[a];
    std::string s = "(";
    for (int a = 0; a < S::rank; ++a)
      s += (a ? ", " : "") + std::to_string(idx[a]);
    return s + ")";
  }
}

[[noreturn]] inline void report_out_of_bounds(const checked_region &r, uintptr_t addr, access kind,
                                              const std::string &lane,
                                              const std::source_location &loc) {
  const char *what = kind == access::load    ? "tl::load"
                     : kind == access::store ? "tl::store"
                                             : "tl::atomic";
  // Whole elements of the buffer's type, rounded towards minus infinity before its start.
  const intptr_t bytes = intptr_t(addr - r.begin);
  const intptr_t esize = intptr_t(r.elem_size);
  const intptr_t index = bytes >= 0 ? bytes / esize : -((-bytes + esize - 1) / esize);
  const auto &pid = current_program().id;
  std::string where = loc.line() ? std::string(loc.file_name()) + ":" + std::to_string(loc.line())
                                 : std::string("the kernel");
  std::string msg = where + ": " + what + " out of bounds";
  if (*loc.function_name())
    msg += " in " + std::string(loc.function_name());
  msg += ": program (" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " +
         std::to_string(pid[2]) + ")";
  if (!lane.empty())
    msg += ", lane " + lane;
  msg += " touches element " + std::to_string(index) + " of buffer '" + r.name + "' (" +
         std::to_string(r.count) + " elements, valid 0.." +
         (r.count ? std::to_string(r.count - 1) : std::string("none")) + ")";
  const char *example = kind == access::load    ? "tl::load(p + offs, offs < n)"
                        : kind == access::store ? "tl::store(p + offs, v, offs < n)"
                                                : "tl::atomic_add(p + offs, v, offs < n)";
  msg += "; mask this lane off (e.g. " + std::string(example) + ") or fix the offset";
  throw out_of_bounds_error(msg);
}

/// Throws out_of_bounds_error when [p, p + size) leaves the registered buffer it belongs to.
/// `lane` is called only then (it formats the lane's index).
template <class Lane>
inline void check_access(const void *p, size_t size, access kind, const std::source_location &loc,
                         const Lane &lane) {
  const std::vector<checked_region> *regions = checked_regions();
  if (!regions)
    return;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  for (const checked_region &r : *regions)
    if (a >= r.guard_begin && a < r.guard_end) {
      if (a >= r.begin && a + size <= r.end)
        return;
      report_out_of_bounds(r, a, kind, lane(), loc);
    }
  // Not a registered buffer's memory: unchecked.
}

inline void check_access(const void *p, size_t size, access kind, const std::source_location &loc) {
  check_access(p, size, kind, loc, [] { return std::string(); });
}

} // namespace detail
} // namespace tl
