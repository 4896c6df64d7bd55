// tilec/tl/swizzle.h - swizzle2d: program indices in grouped order (Triton's tl.swizzle2d).
//
// Matmul programs that run at the same time reuse each other's rows of A and columns of B
// in the L2 cache when they are ordered in groups of size_g rows (Triton's tutorial 03):
//
//   int pid = tl::program_id(0);
//   auto [pid_m, pid_n] =
//       tl::swizzle2d(pid / num_pid_n, pid % num_pid_n, num_pid_m, num_pid_n, GROUP_M);
#pragma once

#include <tilec/tl/scalar_ops.h>

#include <type_traits>
#include <utility>

namespace tl {
namespace detail {
template <class T>
inline constexpr bool is_index_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;
} // namespace detail

/// Maps (i, j) of a size_i x size_j grid, numbered row-major, to the (row, column) that
/// the same number has when the grid is walked in groups of size_g rows, down the columns
/// inside a group (the last group may have fewer rows). Arguments are integer scalars; the
/// pair has their common type (C++'s usual arithmetic conversions); `/` and `%` are C++'s.
template <class I, class J, class SI, class SJ, class SG>
auto swizzle2d(I i, J j, SI size_i, SJ size_j, SG size_g) {
  constexpr bool integers = detail::is_index_v<I> && detail::is_index_v<J> &&
                            detail::is_index_v<SI> && detail::is_index_v<SJ> &&
                            detail::is_index_v<SG>;
  static_assert(integers, "tl::swizzle2d takes integer scalars (program indices and grid sizes)");
  if constexpr (!integers) {
    return std::pair<int, int>(); // only the assertion above is reported
  } else {
    using R = decltype(i + j + size_i + size_j + size_g);
    // detail::op_* wrap and never trap, like the GPU (size_g == 0 is not undefined behaviour).
    R ij = detail::op_add<R>(detail::op_mul<R>(i, size_j), j); // row-major number of (i, j)
    R group = detail::op_mul<R>(size_g, size_j);               // programs in a whole group
    R first_row = detail::op_mul<R>(detail::op_div<R>(ij, group), size_g);
    R left = detail::op_sub<R>(size_i, first_row);
    R rows = left < R(size_g) ? left : R(size_g); // the last group may have fewer rows
    R in_group = detail::op_mod<R>(ij, group);    // ij's number inside its group
    return std::pair<R, R>(detail::op_add<R>(first_row, detail::op_mod<R>(in_group, rows)),
                           detail::op_div<R>(in_group, rows));
  }
}

} // namespace tl
