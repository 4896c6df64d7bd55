// cache_ops.cuh: one global access of 1, 2, 4, 8 or 16 bytes with PTX cache qualifiers.
//
// A load or store may ask for an eviction policy (Evict: Triton's eviction_policy), a cache
// operator (Cache: Triton's cache_modifier) or, for loads, to be volatile. They become the
// qualifiers of one PTX instruction:
//
//   Evict::first                 .cs (streamed: lines go first in L1 and L2)
//   Evict::last                  .L1::evict_last with an L2 policy that keeps the lines
//   Cache::ca / cg / cv          ld.global.ca / .cg / .cv
//   Cache::wb / cg / cs / wt     st.global.wb / .cg / .cs / .wt
//   a cache operator + last      the operator with the keep-in-L2 policy (.L2::cache_hint)
//   Cache::volatile_             ld.volatile.global (no cache operator or policy joins it)
//
// PTX has no access with two cache operators (evict_first is .cs) and none that is volatile
// and has a cache operator or policy: those combinations are refused here, and by the
// translator before the CUDA is written.
#pragma once

#include <tilec/device/common/compat.cuh>

namespace tilec {

/// The cache policy a load or store asks for.
enum class Evict { normal, first, last };

/// How a load or store uses the caches: PTX's cache operators, or a volatile load.
enum class Cache { normal, ca, cg, cv, wb, cs, wt, volatile_ };

namespace detail {

/// An L2 policy that keeps lines (evict_last) for `.L2::cache_hint` accesses.
__device__ inline unsigned long long keep_in_l2_policy() {
  unsigned long long policy;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

/// Whether PTX has a load (LOAD) or store with policy (E, C): one cache operator at most
/// (evict_first is .cs), and a volatile load with nothing else.
template <Evict E, Cache C, bool LOAD>
inline constexpr bool valid_policy =
    C == Cache::volatile_ ? LOAD && E == Evict::normal
    : C == Cache::normal  ? true
    : E == Evict::first   ? false
    : LOAD ? (C == Cache::ca || C == Cache::cg || C == Cache::cv)
           : (C == Cache::wb || C == Cache::cg || C == Cache::cs || C == Cache::wt);

// B bytes between `dst` and `src` (aligned to B), as words of 4 bytes or one 2- or 1-byte
// value in a 16-bit register. OP is the instruction up to its type ("ld.global.cg"); the
// _L2 forms add `.L2::cache_hint` and the operand `policy`.
#define TILEC_LOAD_BYTES(OP)                                                                       \
  if constexpr (B == 16) {                                                                         \
    unsigned *w = static_cast<unsigned *>(dst);                                                    \
    asm volatile(OP ".v4.u32 {%0, %1, %2, %3}, [%4];"                                              \
                 : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])                                  \
                 : "l"(src));                                                                      \
  } else if constexpr (B == 8) {                                                                   \
    unsigned *w = static_cast<unsigned *>(dst);                                                    \
    asm volatile(OP ".v2.u32 {%0, %1}, [%2];" : "=r"(w[0]), "=r"(w[1]) : "l"(src));                \
  } else if constexpr (B == 4) {                                                                   \
    asm volatile(OP ".u32 %0, [%1];" : "=r"(*static_cast<unsigned *>(dst)) : "l"(src));            \
  } else if constexpr (B == 2) {                                                                   \
    asm volatile(OP ".b16 %0, [%1];" : "=h"(*static_cast<unsigned short *>(dst)) : "l"(src));      \
  } else {                                                                                         \
    unsigned short v;                                                                              \
    asm volatile(OP ".u8 %0, [%1];" : "=h"(v) : "l"(src));                                         \
    *static_cast<unsigned char *>(dst) = static_cast<unsigned char>(v);                           \
  }

#define TILEC_LOAD_BYTES_L2(OP)                                                                    \
  if constexpr (B == 16) {                                                                         \
    unsigned *w = static_cast<unsigned *>(dst);                                                    \
    asm volatile(OP ".L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"                           \
                 : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])                                  \
                 : "l"(src), "l"(policy));                                                         \
  } else if constexpr (B == 8) {                                                                   \
    unsigned *w = static_cast<unsigned *>(dst);                                                    \
    asm volatile(OP ".L2::cache_hint.v2.u32 {%0, %1}, [%2], %3;"                                   \
                 : "=r"(w[0]), "=r"(w[1])                                                          \
                 : "l"(src), "l"(policy));                                                         \
  } else if constexpr (B == 4) {                                                                   \
    asm volatile(OP ".L2::cache_hint.u32 %0, [%1], %2;"                                            \
                 : "=r"(*static_cast<unsigned *>(dst))                                             \
                 : "l"(src), "l"(policy));                                                         \
  } else if constexpr (B == 2) {                                                                   \
    asm volatile(OP ".L2::cache_hint.b16 %0, [%1], %2;"                                            \
                 : "=h"(*static_cast<unsigned short *>(dst))                                       \
                 : "l"(src), "l"(policy));                                                         \
  } else {                                                                                         \
    unsigned short v;                                                                              \
    asm volatile(OP ".L2::cache_hint.u8 %0, [%1], %2;" : "=h"(v) : "l"(src), "l"(policy));         \
    *static_cast<unsigned char *>(dst) = static_cast<unsigned char>(v);                           \
  }

#define TILEC_STORE_BYTES(OP)                                                                      \
  if constexpr (B == 16) {                                                                         \
    const unsigned *w = static_cast<const unsigned *>(src);                                        \
    asm volatile(OP ".v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(dst), "r"(w[0]), "r"(w[1]),            \
                 "r"(w[2]), "r"(w[3])                                                              \
                 : "memory");                                                                      \
  } else if constexpr (B == 8) {                                                                   \
    const unsigned *w = static_cast<const unsigned *>(src);                                        \
    asm volatile(OP ".v2.u32 [%0], {%1, %2};" ::"l"(dst), "r"(w[0]), "r"(w[1]) : "memory");        \
  } else if constexpr (B == 4) {                                                                   \
    asm volatile(OP ".u32 [%0], %1;" ::"l"(dst), "r"(*static_cast<const unsigned *>(src))          \
                 : "memory");                                                                      \
  } else if constexpr (B == 2) {                                                                   \
    asm volatile(OP ".b16 [%0], %1;" ::"l"(dst), "h"(*static_cast<const unsigned short *>(src))    \
                 : "memory");                                                                      \
  } else {                                                                                         \
    const unsigned short v = *static_cast<const unsigned char *>(src);                             \
    asm volatile(OP ".u8 [%0], %1;" ::"l"(dst), "h"(v) : "memory");                                \
  }

#define TILEC_STORE_BYTES_L2(OP)                                                                   \
  if constexpr (B == 16) {                                                                         \
    const unsigned *w = static_cast<const unsigned *>(src);                                        \
    asm volatile(OP ".L2::cache_hint.v4.u32 [%0], {%1, %2, %3, %4}, %5;" ::"l"(dst), "r"(w[0]),    \
                 "r"(w[1]), "r"(w[2]), "r"(w[3]), "l"(policy)                                      \
                 : "memory");                                                                      \
  } else if constexpr (B == 8) {                                                                   \
    const unsigned *w = static_cast<const unsigned *>(src);                                        \
    asm volatile(OP ".L2::cache_hint.v2.u32 [%0], {%1, %2}, %3;" ::"l"(dst), "r"(w[0]),            \
                 "r"(w[1]), "l"(policy)                                                            \
                 : "memory");                                                                      \
  } else if constexpr (B == 4) {                                                                   \
    asm volatile(OP ".L2::cache_hint.u32 [%0], %1, %2;" ::"l"(dst),                                \
                 "r"(*static_cast<const unsigned *>(src)), "l"(policy)                             \
                 : "memory");                                                                      \
  } else if constexpr (B == 2) {                                                                   \
    asm volatile(OP ".L2::cache_hint.b16 [%0], %1, %2;" ::"l"(dst),                                \
                 "h"(*static_cast<const unsigned short *>(src)), "l"(policy)                       \
                 : "memory");                                                                      \
  } else {                                                                                         \
    const unsigned short v = *static_cast<const unsigned char *>(src);                             \
    asm volatile(OP ".L2::cache_hint.u8 [%0], %1, %2;" ::"l"(dst), "h"(v), "l"(policy)             \
                 : "memory");                                                                      \
  }

/// B bytes read from `src` into `dst` with policy (E, C); not both normal.
template <Evict E, Cache C, int B> __device__ inline void load_bytes(void *dst, const void *src) {
  static_assert(B == 1 || B == 2 || B == 4 || B == 8 || B == 16,
                "an access moves 1, 2, 4, 8 or 16 bytes");
  static_assert(valid_policy<E, C, true>,
                "this load's cache operator, eviction policy and volatile do not combine in PTX");
  if constexpr (C == Cache::volatile_) {
    TILEC_LOAD_BYTES("ld.volatile.global")
  } else if constexpr (E == Evict::last) {
    // Alone or after a cache operator: the policy keeps the lines in L2.
    const unsigned long long policy = keep_in_l2_policy();
    if constexpr (C == Cache::ca) {
      TILEC_LOAD_BYTES_L2("ld.global.ca")
    } else if constexpr (C == Cache::cg) {
      TILEC_LOAD_BYTES_L2("ld.global.cg")
    } else if constexpr (C == Cache::cv) {
      TILEC_LOAD_BYTES_L2("ld.global.cv")
    } else {
      TILEC_LOAD_BYTES_L2("ld.global.L1::evict_last")
    }
  } else if constexpr (E == Evict::first) {
    TILEC_LOAD_BYTES("ld.global.cs")
  } else if constexpr (C == Cache::ca) {
    TILEC_LOAD_BYTES("ld.global.ca")
  } else if constexpr (C == Cache::cg) {
    TILEC_LOAD_BYTES("ld.global.cg")
  } else {
    TILEC_LOAD_BYTES("ld.global.cv")
  }
}

/// B bytes written from `src` to `dst` with policy (E, C); not both normal.
template <Evict E, Cache C, int B> __device__ inline void store_bytes(void *dst, const void *src) {
  static_assert(B == 1 || B == 2 || B == 4 || B == 8 || B == 16,
                "an access moves 1, 2, 4, 8 or 16 bytes");
  static_assert(valid_policy<E, C, false>,
                "this store's cache operator and eviction policy do not combine in PTX");
  if constexpr (E == Evict::last) {
    const unsigned long long policy = keep_in_l2_policy();
    if constexpr (C == Cache::wb) {
      TILEC_STORE_BYTES_L2("st.global.wb")
    } else if constexpr (C == Cache::cg) {
      TILEC_STORE_BYTES_L2("st.global.cg")
    } else if constexpr (C == Cache::cs) {
      TILEC_STORE_BYTES_L2("st.global.cs")
    } else if constexpr (C == Cache::wt) {
      TILEC_STORE_BYTES_L2("st.global.wt")
    } else {
      TILEC_STORE_BYTES_L2("st.global.L1::evict_last")
    }
  } else if constexpr (E == Evict::first || C == Cache::cs) {
    TILEC_STORE_BYTES("st.global.cs")
  } else if constexpr (C == Cache::wb) {
    TILEC_STORE_BYTES("st.global.wb")
  } else if constexpr (C == Cache::cg) {
    TILEC_STORE_BYTES("st.global.cg")
  } else {
    TILEC_STORE_BYTES("st.global.wt")
  }
}

/// B bytes stored with no cache qualifier, as one instruction. NVVM splits a plain C++ store
/// of a 16-byte vector into four scalar stores when its address is a pointer plus a 64-bit
/// row offset plus a 64-bit column (`p + row * n + col`), even through float4 and with the
/// alignment asserted; the instruction written out is never split.
template <int B> __device__ inline void store_bytes_plain(void *dst, const void *src) {
  static_assert(B == 1 || B == 2 || B == 4 || B == 8 || B == 16,
                "an access moves 1, 2, 4, 8 or 16 bytes");
  TILEC_STORE_BYTES("st.global")
}

#undef TILEC_LOAD_BYTES
#undef TILEC_LOAD_BYTES_L2
#undef TILEC_STORE_BYTES
#undef TILEC_STORE_BYTES_L2

} // namespace detail
} // namespace tilec
