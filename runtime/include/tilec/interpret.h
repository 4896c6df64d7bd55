// tilec/interpret.h - run a kernel on the CPU, one program instance after another
// (Triton's TRITON_INTERPRET=1):
//
//   tilec::interpret::launch(add_kernel<1024>, tilec::Grid{tilec::cdiv(n, 1024)}, x, y, out, n);
//
// Pointers are host pointers. Instances run sequentially on the calling thread, x fastest,
// so a kernel is debuggable with gdb and sanitizers.
#pragma once

#include <tilec/grid.h>
#include <tilec/tl.h>

#include <type_traits>

namespace tilec::interpret {

/// Runs kernel(args...) once for every program instance of grid. The arguments are passed
/// to every instance unchanged (as by value to a GPU kernel).
template <class Kernel, class... Args>
  requires std::is_invocable_v<Kernel &, Args &...>
void launch(Kernel &&kernel, Grid grid, Args &&...args) {
  auto &state = tl::detail::current_program();
  const tl::detail::program_state saved = state;
  // Restore the caller's view even if the kernel throws (tl::assume, bad axis).
  struct restore {
    tl::detail::program_state &state;
    tl::detail::program_state saved;
    ~restore() { state = saved; }
  } guard{state, saved};
  state.num[0] = grid.x;
  state.num[1] = grid.y;
  state.num[2] = grid.z;
  for (uint32_t z = 0; z < grid.z; ++z)
    for (uint32_t y = 0; y < grid.y; ++y)
      for (uint32_t x = 0; x < grid.x; ++x) {
        state.id[0] = x;
        state.id[1] = y;
        state.id[2] = z;
        kernel(args...);
      }
}

/// The same, with launch options; num_warps and num_stages do not change host results.
template <class Kernel, class... Args>
  requires std::is_invocable_v<Kernel &, Args &...>
void launch(Kernel &&kernel, Grid grid, const LaunchOptions &, Args &&...args) {
  launch(kernel, grid, args...);
}

} // namespace tilec::interpret
