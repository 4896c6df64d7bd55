// tilec/interpret.h - run a kernel on the CPU, one program instance after another
// (Triton's TRITON_INTERPRET=1):
//
//   tilec::interpret::launch(add_kernel<1024>, tilec::Grid{tilec::cdiv(n, 1024)}, x, y, out, n);
//
// Pointers are host pointers. Instances run sequentially on the calling thread, x fastest,
// so a kernel is debuggable with gdb and sanitizers.
//
// Checked mode: pass buffers as tilec::interpret::checked(vector_or_span, "name") (or
// checked(pointer, count, "name")) instead of pointers, and every load, store or atomic
// that touches an element outside them throws tl::out_of_bounds_error naming the kernel
// line, the program, the lane, the element and the buffer (tilec/checked_launch.h).
#pragma once

#include <tilec/checked_launch.h>
#include <tilec/grid.h>
#include <tilec/tl.h>

#include <tuple>
#include <type_traits>
#include <utility>

namespace tilec::interpret {
namespace detail {

/// Runs kernel(args...) once for every program instance of grid.
template <class Kernel, class... Args> void run_grid(Kernel &kernel, Grid grid, Args &...args) {
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

template <class Kernel, class... Args, size_t... I>
void run_checked(Kernel &kernel, Grid grid, std::index_sequence<I...>, Args &...args) {
  checked_session session;
  // Braced: arguments are passed (copied) in order, so error names follow positions.
  std::tuple<passed_t<Args>...> passed{session.pass(args, int(I) + 1)...};
  session.activate();
  std::apply([&](auto &...a) { run_grid(kernel, grid, a...); }, passed);
}

} // namespace detail

/// Runs kernel(args...) once for every program instance of grid. The arguments are passed
/// to every instance unchanged (as by value to a GPU kernel); checked(...) arguments pass as
/// pointers to checked copies.
template <class Kernel, class... Args>
  requires std::is_invocable_v<Kernel &, detail::passed_t<Args> &...>
void launch(Kernel &&kernel, Grid grid, Args &&...args) {
  if constexpr ((detail::is_checked_v<Args> || ...))
    detail::run_checked(kernel, grid, std::index_sequence_for<Args...>{}, args...);
  else
    detail::run_grid(kernel, grid, args...);
}

/// The same, with launch options; num_warps and num_stages do not change host results.
template <class Kernel, class... Args>
  requires std::is_invocable_v<Kernel &, detail::passed_t<Args> &...>
void launch(Kernel &&kernel, Grid grid, const LaunchOptions &, Args &&...args) {
  launch(kernel, grid, args...);
}

} // namespace tilec::interpret
