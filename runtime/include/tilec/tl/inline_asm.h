// tilec/tl/inline_asm.h - tl::inline_asm_elementwise: PTX that the GPU runs once per element.
//
//   auto y = tl::inline_asm_elementwise<float>("tanh.approx.f32 $0, $1;", "=f,f", x);
//   auto s = tl::inline_asm_elementwise<unsigned, false>("mov.u32 $0, %smid;", "=r");
//   auto z = tl::inline_asm_elementwise<float>("tanh.approx.f32 $0, $1;", "=f,f", x,
//                                              tl::host_fallback(my_tanh));
//
// Triton's inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack) is
// tl::inline_asm_elementwise<dtype, is_pure = true, pack = 1>(asm, constraints, args...):
// - asm is Triton's text: $0 is the result, $1, $2, ... the arguments in order, $$ a dollar
//   sign; % is literal (PTX's %smid).
// - constraints: the result's register ("=r") then one per argument, comma-separated: h (16
//   bits), r (32 bits), l (64 bits), f (float), d (double). A value must have its register's
//   size; a float in "r" or a half in "h" passes its bits.
// - the arguments (tiles or scalars of numbers) broadcast together; the result has their
//   shape (a scalar when none is a tile) and type dtype.
// - is_pure = false makes every execution stay (asm volatile): the asm has effects or reads
//   state. Pure asm may be merged with an equal one or removed when its result is unused.
// - pack is 1 (the asm computes one element) and there is one result.
//
// The interpreter cannot run PTX. A call throws tl::inline_asm_error naming its line, unless
// the last argument is tl::host_fallback(f): the interpreter then computes each element as
// f(the arguments' elements...) converted to dtype, and the translator leaves f out.
#pragma once

#include <tilec/tl/tile.h>

#include <source_location>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace tl {

/// What the interpreter throws for tl::inline_asm_elementwise without a host fallback.
struct inline_asm_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What the interpreter computes instead of the asm: fn(the arguments' elements...).
template <class F> struct host_fallback_fn {
  F fn;
};
template <class F> host_fallback_fn<F> host_fallback(F fn) { return {std::move(fn)}; }

namespace detail {

template <class X> inline constexpr bool is_host_fallback_v = false;
template <class F> inline constexpr bool is_host_fallback_v<host_fallback_fn<F>> = true;

/// The asm text of a call and where the call is (for the interpreter's error).
struct asm_text {
  const char *text;
  std::source_location loc;
  asm_text(const char *t, std::source_location l = std::source_location::current())
      : text(t), loc(l) {}
};

/// Whether the last of Xs is a tl::host_fallback.
template <class... Xs> constexpr bool ends_with_fallback() {
  if constexpr (sizeof...(Xs) == 0)
    return false;
  else
    return is_host_fallback_v<std::tuple_element_t<sizeof...(Xs) - 1, std::tuple<Xs...>>>;
}

template <class T, class... Xs> auto inline_asm_result(const Xs &...xs) {
  if constexpr (sizeof...(Xs) == 0)
    return T();
  else
    return map<T>([](const auto &...) { return T(); }, xs...);
}

} // namespace detail

template <class T, bool IsPure = true, int Pack = 1, class... Args>
auto inline_asm_elementwise(detail::asm_text asm_, const char *constraints,
                            const Args &...args) {
  static_assert(detail::is_elem_v<T>,
                "tl::inline_asm_elementwise<T>: T (Triton's dtype) must be an element type");
  static_assert(Pack == 1, "tl::inline_asm_elementwise runs its asm on one element at a time "
                           "(pack = 1)");
  (void)constraints;
  constexpr size_t n = sizeof...(Args);
  if constexpr (detail::ends_with_fallback<Args...>()) {
    auto all = std::forward_as_tuple(args...);
    const auto &fallback = std::get<n - 1>(all);
    if constexpr (n == 1) {
      return detail::convert<T>(fallback.fn());
    } else {
      return [&]<size_t... I>(std::index_sequence<I...>) {
        static_assert((detail::is_operand_v<std::tuple_element_t<I, std::tuple<Args...>>> && ...),
                      "tl::inline_asm_elementwise takes tiles or scalars of numbers");
        return detail::map<T>(
            [&](const auto &...e) { return detail::convert<T>(fallback.fn(e...)); },
            std::get<I>(all)...);
      }(std::make_index_sequence<n - 1>{});
    }
  } else {
    static_assert((detail::is_operand_v<Args> && ...),
                  "tl::inline_asm_elementwise takes tiles or scalars of numbers");
    using R = decltype(detail::inline_asm_result<T>(args...));
    throw inline_asm_error(std::string(asm_.loc.file_name()) + ":" +
                           std::to_string(asm_.loc.line()) +
                           ": tl::inline_asm_elementwise runs only on the GPU (\"" + asm_.text +
                           "\"); give the interpreter tl::host_fallback(f) as its last "
                           "argument, f computing an element from the arguments' elements");
    return R();
  }
}

} // namespace tl
