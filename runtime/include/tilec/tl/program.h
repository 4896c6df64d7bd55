// tilec/tl/program.h - which program instance is running (Triton's program_id).
//
// On the host the interpreter sets a thread-local record before it runs each instance
// (tilec/interpret.h); outside a launch a kernel sees instance 0 of a 1x1x1 grid.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace tl {
namespace detail {

struct program_state {
  uint32_t id[3] = {0, 0, 0};
  uint32_t num[3] = {1, 1, 1};
};

inline program_state &current_program() {
  static thread_local program_state state;
  return state;
}

inline int checked_axis(int axis) {
  if (axis < 0 || axis > 2)
    throw std::out_of_range("tl::program_id/num_programs: axis must be 0, 1 or 2");
  return axis;
}

} // namespace detail

/// Index of the running program instance along axis 0, 1 or 2.
inline int program_id(int axis) {
  return int(detail::current_program().id[detail::checked_axis(axis)]);
}

/// Number of program instances along axis 0, 1 or 2 (the launch grid).
inline int num_programs(int axis) {
  return int(detail::current_program().num[detail::checked_axis(axis)]);
}

} // namespace tl
