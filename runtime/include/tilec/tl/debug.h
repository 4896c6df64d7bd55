// tilec/tl/debug.h - device_print, device_assert and debug_barrier.
//
// device_print("x", t) writes one line per element to stdout, as Triton's GPU print does:
//   pid (0, 2, 0) idx (3, 1) x: 1.5
// (a scalar has no idx part; with several operands each line names its operand).
// device_assert(cond, "msg") checks every lane of cond and throws tl::device_assert_error
// naming the program and the first failing element. The interpreter always checks.
// debug_barrier() is Triton's tl.debug_barrier: on the GPU every thread of the program reaches
// it before any goes on, and the memory accesses before it are seen by all threads after it.
#pragma once

#include <tilec/tl/program.h>
#include <tilec/tl/tile.h>

#include <cstdio>
#include <string>

namespace tl {

/// What device_assert throws in the interpreter.
struct device_assert_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace detail {

inline void print_value(bool v) { std::printf("%d", int(v)); }
template <class T> void print_value(const T &v) {
  if constexpr (std::is_pointer_v<T>)
    std::printf("%p", static_cast<const void *>(v));
  else if constexpr (std::is_same_v<T, double>)
    std::printf("%.17g", v);
  else if constexpr (is_float_elem_v<T>)
    std::printf("%.9g", double(float(v)));
  else if constexpr (std::is_signed_v<T>)
    std::printf("%lld", (long long)v);
  else
    std::printf("%llu", (unsigned long long)v);
}

/// Prints operand `x` (number `k` of `count`) of a device_print.
template <class X> void print_operand(const char *prefix, const X &x, int k, int count) {
  const auto &pid = current_program().id;
  using S = shape_t<X>;
  for (int f = 0; f < S::size; ++f) {
    std::printf("pid (%u, %u, %u)", pid[0], pid[1], pid[2]);
    if constexpr (S::rank > 0) {
      int idx[3] = {0, 0, 0};
      for (int a = S::rank - 1, g = f; a >= 0; g /= S::value[a], --a)
        idx[a] = g % S::value[a];
      std::printf(" idx (");
      for (int a = 0; a < S::rank; ++a)
        std::printf(a ? ", %d" : "%d", idx[a]);
      std::printf(")");
    }
    std::printf(" %s", prefix);
    if (count > 1)
      std::printf(" (operand %d)", k);
    std::printf(": ");
    if constexpr (S::rank > 0)
      print_value(x.elems[f]);
    else
      print_value(x);
    std::printf("\n");
  }
}

} // namespace detail

/// Prints every element of each operand (tiles or scalars), prefixed by the program id.
template <class... Xs> void device_print(const char *prefix, const Xs &...xs) {
  int k = 0;
  (detail::print_operand(prefix, xs, k++, int(sizeof...(Xs))), ...);
  std::fflush(stdout);
}

/// Throws device_assert_error when any lane of cond (a scalar or a tile) is false.
template <class C> void device_assert(const C &cond, const char *msg) {
  using S = detail::shape_t<C>;
  for (int f = 0; f < S::size; ++f) {
    bool ok;
    if constexpr (S::rank > 0)
      ok = detail::convert<bool>(cond.elems[f]);
    else
      ok = detail::convert<bool>(cond);
    if (!ok) {
      const auto &pid = detail::current_program().id;
      throw device_assert_error("device_assert failed in program (" + std::to_string(pid[0]) +
                                ", " + std::to_string(pid[1]) + ", " + std::to_string(pid[2]) +
                                "), element " + std::to_string(f) + ": " + msg);
    }
  }
}

/// Orders the program's memory accesses across its threads on the GPU: what any thread wrote
/// before it (a tile store) is what every thread reads or overwrites after it (a scalar store
/// to one of those elements, a load of them). The interpreter runs a program's elements in
/// order, so it has nothing to wait for.
inline void debug_barrier() {}

} // namespace tl
