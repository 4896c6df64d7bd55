// types.cuh: element types as generated code spells them, and the promotion of element types
// that are template parameters (tilec::promote_t<T, float>), following the translator's rules.
// fp8 (tl::float8_e4m3, tl::float8_e5m2) is a storage type: it only converts (tilec::cast);
// arithmetic on it runs in float, which the translator makes explicit with casts.
#pragma once

#include <tilec/device/common/compat.cuh>

namespace tl {
using half = __half;
using bfloat16 = __nv_bfloat16;
#if defined(TILEC_FP8)
using float8_e4m3 = __nv_fp8_e4m3;
using float8_e5m2 = __nv_fp8_e5m2;
#endif
} // namespace tl

namespace tilec {

template <class T> struct type_rank;
// rank: floats above integers; within a kind, wider above narrower.
template <> struct type_rank<bool> {
  static constexpr int kind = 0, bits = 8, is_signed = 0;
};
template <> struct type_rank<int8_t> {
  static constexpr int kind = 1, bits = 8, is_signed = 1;
};
template <> struct type_rank<uint8_t> {
  static constexpr int kind = 1, bits = 8, is_signed = 0;
};
template <> struct type_rank<int16_t> {
  static constexpr int kind = 1, bits = 16, is_signed = 1;
};
template <> struct type_rank<uint16_t> {
  static constexpr int kind = 1, bits = 16, is_signed = 0;
};
template <> struct type_rank<int> {
  static constexpr int kind = 1, bits = 32, is_signed = 1;
};
template <> struct type_rank<unsigned> {
  static constexpr int kind = 1, bits = 32, is_signed = 0;
};
template <> struct type_rank<int64_t> {
  static constexpr int kind = 1, bits = 64, is_signed = 1;
};
template <> struct type_rank<uint64_t> {
  static constexpr int kind = 1, bits = 64, is_signed = 0;
};
template <> struct type_rank<__half> {
  static constexpr int kind = 2, bits = 16, is_signed = 1;
};
template <> struct type_rank<__nv_bfloat16> {
  static constexpr int kind = 2, bits = 16, is_signed = 1;
};
#if defined(TILEC_FP8)
template <> struct type_rank<__nv_fp8_e4m3> {
  static constexpr int kind = 2, bits = 8, is_signed = 1;
};
template <> struct type_rank<__nv_fp8_e5m2> {
  static constexpr int kind = 2, bits = 8, is_signed = 1;
};
#endif
template <> struct type_rank<float> {
  static constexpr int kind = 2, bits = 32, is_signed = 1;
};
template <> struct type_rank<double> {
  static constexpr int kind = 2, bits = 64, is_signed = 1;
};

template <bool C, class A, class B> struct pick {
  using type = A;
};
template <class A, class B> struct pick<false, A, B> {
  using type = B;
};

/// Triton's promotion of two tile element types.
template <class A, class B> struct promote {
  using RA = type_rank<A>;
  using RB = type_rank<B>;
  static constexpr bool a_wins = RA::kind != RB::kind ? RA::kind > RB::kind
                                 : RA::bits != RB::bits
                                     ? RA::bits > RB::bits
                                     : !RA::is_signed; // same width: unsigned wins
  // bfloat16 with an integer or bool computes in float (the interpreter's rule 4).
  static constexpr bool bf16_with_int = (is_same_v<A, __nv_bfloat16> && RB::kind < 2) ||
                                        (is_same_v<B, __nv_bfloat16> && RA::kind < 2);
  using type = typename pick<bf16_with_int, float, typename pick<a_wins, A, B>::type>::type;
};
template <class A> struct promote<A, A> {
  using type = A;
};
// fp16 with bf16: neither holds the other.
template <> struct promote<__half, __nv_bfloat16> {
  using type = float;
};
template <> struct promote<__nv_bfloat16, __half> {
  using type = float;
};

#if defined(TILEC_FP8)
template <class T>
inline constexpr bool is_fp8_v = is_same_v<T, __nv_fp8_e4m3> || is_same_v<T, __nv_fp8_e5m2>;
#else
template <class T> inline constexpr bool is_fp8_v = false;
#endif

/// The type a value of type T computes in: float for fp8, else T.
template <class T> struct arith {
  using type = typename pick<is_fp8_v<T>, float, T>::type;
};

/// Promotion as the translator does it: fp8 enters as float (fp8 with fp8 gives float too).
template <class A, class B>
using promote_t = typename promote<typename arith<A>::type, typename arith<B>::type>::type;

/// The type `/` and `%` of tiles compute in: float for half and bfloat16 (the interpreter's
/// rules 3 and 4), else T. Generated code spells it where T is a template parameter (not
/// `div_t`, which C's <stdlib.h> declares).
template <class T> struct quotient_type {
  using type = T;
};
template <> struct quotient_type<__half> {
  using type = float;
};
template <> struct quotient_type<__nv_bfloat16> {
  using type = float;
};
template <class T> using quotient_t = typename quotient_type<T>::type;

/// The type a scalar of type T computes in (C++'s usual conversions, as the interpreter's
/// scalars follow them): int for the narrow integers and bool, float for the 16- and 8-bit
/// floats, else T.
template <class T> struct widen_type {
  using type = typename pick<(type_rank<T>::kind < 2 && type_rank<T>::bits < 32), int,
                             typename pick<(type_rank<T>::kind == 2 && type_rank<T>::bits < 32),
                                           float, T>::type>::type;
};
template <class T> using widen_t = typename widen_type<T>::type;

/// Whether a tile of T combined with a scalar of type S keeps the type T (the interpreter's
/// rule 0): a scalar of a higher kind (bool < integer < floating), a 64-bit integer with a
/// narrower integer tile, and any scalar with a fp8 tile change it. Kernels over a type
/// parameter assert it where the generated code spells the result T.
template <class T, class S>
inline constexpr bool scalar_keeps_tile_type =
    !is_fp8_v<T> && type_rank<S>::kind <= type_rank<T>::kind &&
    !(type_rank<T>::kind == 1 && type_rank<S>::kind == 1 && type_rank<S>::bits == 64 &&
      type_rank<T>::bits < 64);

} // namespace tilec
