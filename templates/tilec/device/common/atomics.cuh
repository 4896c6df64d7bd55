// atomics.cuh: atomic read-modify-write on one element, returning the old value, with the
// memory ordering of Triton's atomics (default acq_rel at GPU scope).
//
// Each call is one PTX `atom{.sem}{.scope}` on a generic address (global or shared memory),
// sm_70 and newer: the ordering is part of the instruction, with no separate fence. cuda::
// atomic_ref would do the same but its headers cost ~0.9 s per NVRTC compile.
//
// Types: 32- and 64-bit integers (int, unsigned, long, long long and their unsigned forms),
// float and double. Float max/min use the integer order of float bits (see atomic_max);
// float xchg/cas move bits, so cas compares bit patterns (+0.0 != -0.0, a NaN matches itself).
#pragma once

#include <tilec/device/common/compat.cuh>

namespace tilec {

/// Memory ordering of an atomic (PTX .sem).
enum class MemSem { relaxed, acquire, release, acq_rel };
/// The threads an atomic orders with (PTX .scope): the block, the GPU, the whole system.
enum class MemScope { cta, gpu, sys };

namespace detail {
template <class T>
inline constexpr bool is_signed_word_v =
    is_same_v<T, int> || is_same_v<T, long> || is_same_v<T, long long>;
template <class T>
inline constexpr bool is_unsigned_word_v =
    is_same_v<T, unsigned> || is_same_v<T, unsigned long> || is_same_v<T, unsigned long long>;
template <class T>
inline constexpr bool is_int_word_v = is_signed_word_v<T> || is_unsigned_word_v<T>;
} // namespace detail

// The .sem.scope qualifier must be part of the asm string literal, so each choice of
// (SEM, SCOPE) is its own asm statement; these macros spell the twelve of them once.
#define TILEC_ATOM_SCOPES(SEMQ, BODY, ...)                                                         \
  if constexpr (SCOPE == MemScope::cta) {                                                          \
    BODY(SEMQ ".cta", __VA_ARGS__);                                                                \
  } else if constexpr (SCOPE == MemScope::gpu) {                                                   \
    BODY(SEMQ ".gpu", __VA_ARGS__);                                                                \
  } else {                                                                                         \
    BODY(SEMQ ".sys", __VA_ARGS__);                                                                \
  }
#define TILEC_ATOM_ORDERED(BODY, ...)                                                              \
  if constexpr (SEM == MemSem::relaxed) {                                                          \
    TILEC_ATOM_SCOPES(".relaxed", BODY, __VA_ARGS__)                                               \
  } else if constexpr (SEM == MemSem::acquire) {                                                   \
    TILEC_ATOM_SCOPES(".acquire", BODY, __VA_ARGS__)                                               \
  } else if constexpr (SEM == MemSem::release) {                                                   \
    TILEC_ATOM_SCOPES(".release", BODY, __VA_ARGS__)                                               \
  } else {                                                                                         \
    TILEC_ATOM_SCOPES(".acq_rel", BODY, __VA_ARGS__)                                               \
  }
// old = op(*p, v); C is the operands' constraint letter ("r", "l", "f", "d").
#define TILEC_ATOM_RMW(Q, OPTY, C, OLD, P, V)                                                      \
  asm volatile("atom" Q OPTY " %0, [%1], %2;" : "=" C(OLD) : "l"(P), C(V) : "memory")
// old = *p; *p = (old == CMP ? V : old).
#define TILEC_ATOM_CAS(Q, OPTY, C, OLD, P, CMP, V)                                                 \
  asm volatile("atom" Q OPTY " %0, [%1], %2, %3;" : "=" C(OLD) : "l"(P), C(CMP), C(V) : "memory")
// One integer op, picking the 32- or 64-bit form; S32/S64 are the PTX type suffixes.
#define TILEC_ATOM_INT(S32, S64, OLD, P, V)                                                        \
  if constexpr (sizeof(T) == 4) {                                                                  \
    TILEC_ATOM_ORDERED(TILEC_ATOM_RMW, S32, "r", OLD, P, V)                                        \
  } else {                                                                                         \
    TILEC_ATOM_ORDERED(TILEC_ATOM_RMW, S64, "l", OLD, P, V)                                        \
  }

namespace detail {
/// Integer max/min, signed or unsigned as T is (the float forms below build on these).
template <MemSem SEM, MemScope SCOPE, class T> __device__ inline T atom_int_max(T *p, T v) {
  T old;
  if constexpr (is_signed_word_v<T>) {
    TILEC_ATOM_INT(".max.s32", ".max.s64", old, p, v)
  } else {
    TILEC_ATOM_INT(".max.u32", ".max.u64", old, p, v)
  }
  return old;
}
template <MemSem SEM, MemScope SCOPE, class T> __device__ inline T atom_int_min(T *p, T v) {
  T old;
  if constexpr (is_signed_word_v<T>) {
    TILEC_ATOM_INT(".min.s32", ".min.s64", old, p, v)
  } else {
    TILEC_ATOM_INT(".min.u32", ".min.u64", old, p, v)
  }
  return old;
}
} // namespace detail

namespace detail {
/// *p = bf16(*p + v) by compare-and-swap of the 16-bit word (sm_80 and sm_89 have no bf16
/// atom.add); the sum rounds to nearest even, as the instruction's does.
template <MemSem SEM, MemScope SCOPE>
__device__ inline unsigned short atom_bf16_add_cas(__nv_bfloat16 *p, __nv_bfloat16 v) {
  unsigned short cur = *reinterpret_cast<volatile unsigned short *>(p), seen;
  while (true) {
    const unsigned short want = __bfloat16_as_ushort(
        __float2bfloat16_rn(__bfloat162float(__ushort_as_bfloat16(cur)) + __bfloat162float(v)));
    TILEC_ATOM_ORDERED(TILEC_ATOM_CAS, ".cas.b16", "h", seen, p, cur, want)
    if (seen == cur)
      return cur;
    cur = seen;
  }
}
} // namespace detail

/// *p += v; returns the old value. T: a 32/64-bit integer, float, double, half or bfloat16
/// (16-bit sums round to nearest even).
template <MemSem SEM = MemSem::acq_rel, MemScope SCOPE = MemScope::gpu, class T>
__device__ inline T atomic_add(T *p, T v) {
  static_assert(detail::is_int_word_v<T> || is_same_v<T, float> || is_same_v<T, double> ||
                    is_same_v<T, __half> || is_same_v<T, __nv_bfloat16>,
                "atomic_add takes 32/64-bit integers, float, double, half or bfloat16");
  if constexpr (is_same_v<T, __half>) {
    unsigned short o;
    const unsigned short b = __half_as_ushort(v);
    TILEC_ATOM_ORDERED(TILEC_ATOM_RMW, ".add.noftz.f16", "h", o, p, b)
    return __ushort_as_half(o);
  } else if constexpr (is_same_v<T, __nv_bfloat16>) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned short o;
    const unsigned short b = __bfloat16_as_ushort(v);
    TILEC_ATOM_ORDERED(TILEC_ATOM_RMW, ".add.noftz.bf16", "h", o, p, b)
    return __ushort_as_bfloat16(o);
#else
    return __ushort_as_bfloat16(detail::atom_bf16_add_cas<SEM, SCOPE>(p, v));
#endif
  } else {
    T old;
    if constexpr (is_same_v<T, float>) {
      TILEC_ATOM_ORDERED(TILEC_ATOM_RMW, ".add.f32", "f", old, p, v)
    } else if constexpr (is_same_v<T, double>) {
      TILEC_ATOM_ORDERED(TILEC_ATOM_RMW, ".add.f64", "d", old, p, v)
    } else {
      TILEC_ATOM_INT(".add.u32", ".add.u64", old, p, v) // two's complement: one add for both
    }
    return old;
  }
}

/// *p = max(*p, v); returns the old value. T: a 32/64-bit integer, float or double.
///
/// Floats use the order of their bits: a value with the sign bit clear is the larger the
/// larger its bits read as a signed integer (atom.max.s), one with the sign bit set the larger
/// the smaller its bits read as unsigned (atom.min.u), and every sign-clear value reads below
/// every sign-set one as unsigned. So the result is exact for all numbers, -0.0 < +0.0 (the
/// sign bit decides, unlike a float `v >= 0` test), and a NaN is ordered by its sign: +NaN
/// above everything, -NaN below everything.
template <MemSem SEM = MemSem::acq_rel, MemScope SCOPE = MemScope::gpu, class T>
__device__ inline T atomic_max(T *p, T v) {
  static_assert(detail::is_int_word_v<T> || is_same_v<T, float> || is_same_v<T, double>,
                "atomic_max takes 32/64-bit integers, float or double");
  if constexpr (is_same_v<T, float>) {
    const int bits = __float_as_int(v);
    if (bits >= 0)
      return __int_as_float(detail::atom_int_max<SEM, SCOPE>(reinterpret_cast<int *>(p), bits));
    return __uint_as_float(detail::atom_int_min<SEM, SCOPE>(reinterpret_cast<unsigned *>(p),
                                                            static_cast<unsigned>(bits)));
  } else if constexpr (is_same_v<T, double>) {
    const long long bits = __double_as_longlong(v);
    if (bits >= 0)
      return __longlong_as_double(
          detail::atom_int_max<SEM, SCOPE>(reinterpret_cast<long long *>(p), bits));
    return __longlong_as_double(static_cast<long long>(detail::atom_int_min<SEM, SCOPE>(
        reinterpret_cast<unsigned long long *>(p), static_cast<unsigned long long>(bits))));
  } else {
    return detail::atom_int_max<SEM, SCOPE>(p, v);
  }
}

/// *p = min(*p, v); returns the old value. T: a 32/64-bit integer, float or double. Floats as
/// atomic_max, mirrored: -0.0 < +0.0, -NaN below everything, +NaN above everything.
template <MemSem SEM = MemSem::acq_rel, MemScope SCOPE = MemScope::gpu, class T>
__device__ inline T atomic_min(T *p, T v) {
  static_assert(detail::is_int_word_v<T> || is_same_v<T, float> || is_same_v<T, double>,
                "atomic_min takes 32/64-bit integers, float or double");
  if constexpr (is_same_v<T, float>) {
    const int bits = __float_as_int(v);
    if (bits >= 0)
      return __int_as_float(detail::atom_int_min<SEM, SCOPE>(reinterpret_cast<int *>(p), bits));
    return __uint_as_float(detail::atom_int_max<SEM, SCOPE>(reinterpret_cast<unsigned *>(p),
                                                            static_cast<unsigned>(bits)));
  } else if constexpr (is_same_v<T, double>) {
    const long long bits = __double_as_longlong(v);
    if (bits >= 0)
      return __longlong_as_double(
          detail::atom_int_min<SEM, SCOPE>(reinterpret_cast<long long *>(p), bits));
    return __longlong_as_double(static_cast<long long>(detail::atom_int_max<SEM, SCOPE>(
        reinterpret_cast<unsigned long long *>(p), static_cast<unsigned long long>(bits))));
  } else {
    return detail::atom_int_min<SEM, SCOPE>(p, v);
  }
}

/// *p = v; returns the old value. T: a 32/64-bit integer, float or double (moved as bits).
template <MemSem SEM = MemSem::acq_rel, MemScope SCOPE = MemScope::gpu, class T>
__device__ inline T atomic_xchg(T *p, T v) {
  static_assert(detail::is_int_word_v<T> || is_same_v<T, float> || is_same_v<T, double>,
                "atomic_xchg takes 32/64-bit integers, float or double");
  T old;
  if constexpr (is_same_v<T, float>) {
    TILEC_ATOM_ORDERED(TILEC_ATOM_RMW, ".exch.b32", "f", old, p, v)
  } else if constexpr (is_same_v<T, double>) {
    TILEC_ATOM_ORDERED(TILEC_ATOM_RMW, ".exch.b64", "d", old, p, v)
  } else {
    TILEC_ATOM_INT(".exch.b32", ".exch.b64", old, p, v)
  }
  return old;
}

/// If *p == cmp (bitwise), *p = v; returns the old value either way. T: a 32/64-bit integer,
/// float or double.
template <MemSem SEM = MemSem::acq_rel, MemScope SCOPE = MemScope::gpu, class T>
__device__ inline T atomic_cas(T *p, T cmp, T v) {
  static_assert(detail::is_int_word_v<T> || is_same_v<T, float> || is_same_v<T, double>,
                "atomic_cas takes 32/64-bit integers, float or double");
  T old;
  if constexpr (is_same_v<T, float>) {
    TILEC_ATOM_ORDERED(TILEC_ATOM_CAS, ".cas.b32", "f", old, p, cmp, v)
  } else if constexpr (is_same_v<T, double>) {
    TILEC_ATOM_ORDERED(TILEC_ATOM_CAS, ".cas.b64", "d", old, p, cmp, v)
  } else if constexpr (sizeof(T) == 4) {
    TILEC_ATOM_ORDERED(TILEC_ATOM_CAS, ".cas.b32", "r", old, p, cmp, v)
  } else {
    TILEC_ATOM_ORDERED(TILEC_ATOM_CAS, ".cas.b64", "l", old, p, cmp, v)
  }
  return old;
}

/// Bitwise and/or/xor: *p = *p op v; returns the old value. T: a 32/64-bit integer.
#define TILEC_ATOM_BITWISE(NAME, OP)                                                               \
  template <MemSem SEM = MemSem::acq_rel, MemScope SCOPE = MemScope::gpu, class T>                 \
  __device__ inline T NAME(T *p, T v) {                                                            \
    static_assert(detail::is_int_word_v<T>, #NAME " takes 32/64-bit integers");                    \
    T old;                                                                                         \
    TILEC_ATOM_INT("." OP ".b32", "." OP ".b64", old, p, v)                                        \
    return old;                                                                                    \
  }
TILEC_ATOM_BITWISE(atomic_and, "and")
TILEC_ATOM_BITWISE(atomic_or, "or")
TILEC_ATOM_BITWISE(atomic_xor, "xor")
#undef TILEC_ATOM_BITWISE

#undef TILEC_ATOM_INT
#undef TILEC_ATOM_CAS
#undef TILEC_ATOM_RMW
// TILEC_ATOM_ORDERED and TILEC_ATOM_SCOPES stay: atomic_runs.cuh spells its vector atoms
// with them.

} // namespace tilec
