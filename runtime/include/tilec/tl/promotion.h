// tilec/tl/promotion.h - the element type of a binary operation (Triton's rules).
//
// Type promotion, as triton.language does it (semantic.computation_type_impl):
//
//  0. Tile with scalar. Types have a kind: bool < integer < floating. A scalar whose kind is
//     not higher than the tile's does not take part: the result has the tile's type
//        tile<half> + 1.5f       -> tile<half>
//        tile<uint32> + -1       -> tile<uint32>
//        tile<int8> + 1          -> tile<int8>
//     except a 64-bit integer scalar with a narrower integer tile, which promotes by rule 5
//     (Triton weakens only literals; an int64 scalar is a kernel argument or a widened
//     program id there, and an offset tile built on it must not wrap at 2^31):
//        tile<int32> + int64_t   -> tile<int64>
//        tile<int32> + size_t    -> tile<uint64>
//     A scalar of a higher kind promotes by the rules below as if it were a tile:
//        tile<int32> * 0.5f      -> tile<float>
//        tile<int32> * 0.5       -> tile<double>   (a C++ double is fp64: write 0.5f)
//        tile<bool> + 1          -> tile<int32>
//     Exception (rule 3/4): `/` and `%` on a half/bfloat16 tile compute in float.
//     Exception (rule 2b): a fp8 tile computes in float: tile<float8_e4m3> * 2.0f -> tile<float>.
//  Tile with tile (and scalar with scalar, for tl:: functions that take scalars):
//  1. either is double                 -> double
//  2. either is float                  -> float
//  2b. either is fp8 (float8_e4m3, float8_e5m2), with itself too -> float. fp8 is a
//     storage type here (where Triton may keep a fp8 result): no GPU computes in fp8, and
//     rounding every intermediate to 2 or 3 mantissa bits is rarely what a kernel means.
//  3. half with bfloat16               -> float (Triton gives half here; float loses nothing)
//     either is half                   -> half, but float for `/` and `%`
//  4. both bfloat16                    -> bfloat16, but float for `/` and `%`
//     bfloat16 with an integer         -> float
//  5. both integers: C's usual arithmetic conversions on the actual widths, with no
//     promotion to int (int8 + int8 stays int8); bool is a 1-bit unsigned integer:
//        same signedness               -> the wider
//        unsigned at least as wide     -> the unsigned   (int32 op uint32 -> uint32)
//        signed wider                  -> the signed     (uint32 op int64 -> int64)
//     `/` and `%` on integers of different signedness do not compile (Triton rejects them).
//
// Comparisons promote the same way and give tile<bool>; bitwise operators and shifts need
// integers after promotion. Integer `/` and `%` are C++'s (truncating toward zero, the sign
// of `%` follows the dividend): they are Triton's `//` and `%`, not Python's true `/`.
// Half and bfloat16 arithmetic computes in float and rounds the result to the result type.
#pragma once

#include <tilec/tl/tile.h>

namespace tl::detail {

enum class kind { boolean = 0, integral = 1, floating = 2 };

template <class T> constexpr kind kind_of() {
  if constexpr (std::is_same_v<T, bool>)
    return kind::boolean;
  else if constexpr (std::is_integral_v<T>)
    return kind::integral;
  else
    return kind::floating;
}

template <class T> constexpr int int_bits() {
  return std::is_same_v<T, bool> ? 1 : int(sizeof(T) * 8);
}
template <class T> constexpr bool int_signed() {
  return !std::is_same_v<T, bool> && std::is_signed_v<T>;
}

/// Rule 5: promotion of two (canonical) integer types.
template <class A, class B> struct int_promote {
  static constexpr bool pick_a = int_signed<A>() == int_signed<B>() ? int_bits<A>() > int_bits<B>()
                                 : !int_signed<A>()                 ? int_bits<A>() >= int_bits<B>()
                                                                    : int_bits<A>() > int_bits<B>();
  using type = std::conditional_t<pick_a, A, B>;
};

template <class T> struct type_is {
  using type = T;
};

/// Rules 1-5 for two element types (both tiles, or both scalars).
template <class A, class B, bool DivMod> constexpr auto full_promote() {
  constexpr bool a_h = std::is_same_v<A, half>, b_h = std::is_same_v<B, half>;
  constexpr bool a_bf = std::is_same_v<A, bfloat16>, b_bf = std::is_same_v<B, bfloat16>;
  if constexpr (std::is_same_v<A, double> || std::is_same_v<B, double>)
    return type_is<double>{};
  else if constexpr (std::is_same_v<A, float> || std::is_same_v<B, float>)
    return type_is<float>{};
  else if constexpr (is_fp8_v<A> || is_fp8_v<B>)
    return type_is<float>{};
  else if constexpr ((a_h && b_bf) || (a_bf && b_h))
    return type_is<float>{};
  else if constexpr (a_h || b_h)
    return std::conditional_t<DivMod, type_is<float>, type_is<half>>{};
  else if constexpr (a_bf || b_bf)
    return std::conditional_t<DivMod || !(a_bf && b_bf), type_is<float>, type_is<bfloat16>>{};
  else {
    static_assert(!DivMod || int_signed<A>() == int_signed<B>() || std::is_same_v<A, B>,
                  "tilec: '/' and '%' need integers of the same signedness (cast one first)");
    return type_is<typename int_promote<A, B>::type>{};
  }
}

/// Rule 0 and then rules 1-5, on operand types (tiles or scalars).
template <class X, class Y, bool DivMod = false> constexpr auto promote_tag() {
  using A = elem_t<X>;
  using B = elem_t<Y>;
  constexpr bool x_tile = is_tile_v<X>, y_tile = is_tile_v<Y>;
  if constexpr (x_tile != y_tile) {
    using S = std::conditional_t<x_tile, B, A>; // the scalar
    using T = std::conditional_t<x_tile, A, B>; // the tile's element
    constexpr bool wide_int = kind_of<S>() == kind::integral && kind_of<T>() == kind::integral &&
                              int_bits<S>() == 64 && int_bits<T>() < 64;
    if constexpr (kind_of<S>() <= kind_of<T>() && !wide_int) {
      if constexpr ((DivMod && is_half_like_v<T>) || is_fp8_v<T>)
        return type_is<float>{};
      else
        return type_is<T>{};
    } else {
      return full_promote<A, B, DivMod>();
    }
  } else {
    return full_promote<A, B, DivMod>();
  }
}

/// Element type of `x op y`.
template <class X, class Y> using promote_t = typename decltype(promote_tag<X, Y>())::type;
/// Element type of `x / y` and `x % y`.
template <class X, class Y>
using promote_div_t = typename decltype(promote_tag<X, Y, true>())::type;

/// A stand-in operand with element R that is a tile if any of Xs is (to chain promotion).
template <class R, class... Xs>
using promoted_operand_t = std::conditional_t<(is_tile_v<Xs> || ...), tile<R, 1>, R>;

/// Element type of an n-ary operation (where, fma, clamp): promotion folded left to right.
template <class X, class... Ys> struct promote_all {
  using type = elem_t<X>;
};
template <class X, class Y, class... Zs> struct promote_all<X, Y, Zs...> {
  using type = typename promote_all<promoted_operand_t<promote_t<X, Y>, X, Y>, Zs...>::type;
};
template <class... Xs> using promote_all_t = typename promote_all<Xs...>::type;

} // namespace tl::detail
