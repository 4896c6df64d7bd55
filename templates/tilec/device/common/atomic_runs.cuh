// atomic_runs.cuh: atomic adds over a run of W consecutive elements a thread holds, one
// vector `atom.add` per run where the GPU has them (sm_90 and newer: float in runs of 2 or
// 4, half and bfloat16 in runs of 2, 4 or 8), one atom per element elsewhere.
//
// A vector atom adds every element atomically on its own, with one memory ordering for the
// run: a run of four acq_rel adds costs one fence instead of four. The old values come back
// per element, as from atomic_add.
#pragma once

#include <tilec/device/common/atomics.cuh>
#include <tilec/device/common/global_access.cuh>

namespace tilec {
namespace detail {

// Values and masks come as arrays (tiles) or as one value for the whole run.
template <class T> __device__ inline T run_value(const T *v, int k) { return v[k]; }
template <class T> __device__ inline T run_value(T v, int) { return v; }
__device__ inline bool run_mask(const bool *m, int k) { return m[k]; }
__device__ inline bool run_mask(bool m, int) { return m; }
template <int W, bool MASK_UNIFORM> __device__ inline bool run_all_on(const bool *m) {
  return all_on<W, MASK_UNIFORM>(m);
}
template <int W, bool MASK_UNIFORM> __device__ inline bool run_all_on(bool m) { return m; }

/// Whether this GPU adds a run of W elements of type T with one vector atom.
template <class T, int W> __device__ constexpr bool has_vector_atom() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (is_same_v<T, float>)
    return W == 2 || W == 4;
  if constexpr (is_same_v<T, __half> || is_same_v<T, __nv_bfloat16>)
    return W == 2 || W == 4 || W == 8;
#endif
  return false;
}

// One vector atom; Q is the ".sem.scope" qualifier, TY the PTX type, C the constraint letter.
#define TILEC_ATOM_ADD_V2(Q, TY, C, O, P, V)                                                       \
  asm volatile("atom" Q ".global.add" TY " {%0, %1}, [%2], {%3, %4};"                              \
               : "=" C(O[0]), "=" C(O[1])                                                          \
               : "l"(P), C(V[0]), C(V[1])                                                          \
               : "memory")
#define TILEC_ATOM_ADD_V4(Q, TY, C, O, P, V)                                                       \
  asm volatile("atom" Q ".global.add" TY " {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};"              \
               : "=" C(O[0]), "=" C(O[1]), "=" C(O[2]), "=" C(O[3])                                \
               : "l"(P), C(V[0]), C(V[1]), C(V[2]), C(V[3])                                        \
               : "memory")
#define TILEC_ATOM_ADD_V8(Q, TY, C, O, P, V)                                                       \
  asm volatile("atom" Q ".global.add" TY " {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], "               \
               "{%9, %10, %11, %12, %13, %14, %15, %16};"                                          \
               : "=" C(O[0]), "=" C(O[1]), "=" C(O[2]), "=" C(O[3]), "=" C(O[4]), "=" C(O[5]),     \
                 "=" C(O[6]), "=" C(O[7])                                                          \
               : "l"(P), C(V[0]), C(V[1]), C(V[2]), C(V[3]), C(V[4]), C(V[5]), C(V[6]), C(V[7])    \
               : "memory")

/// old[k] = p[k]; p[k] += v[k] for k < W, as one vector atom (has_vector_atom<T, W>()).
template <MemSem SEM, MemScope SCOPE, int W, class T>
__device__ inline void vector_atom_add(T *old, T *p, const T *v) {
  if constexpr (is_same_v<T, float>) {
    if constexpr (W == 2) {
      TILEC_ATOM_ORDERED(TILEC_ATOM_ADD_V2, ".v2.f32", "f", old, p, v)
    } else {
      TILEC_ATOM_ORDERED(TILEC_ATOM_ADD_V4, ".v4.f32", "f", old, p, v)
    }
  } else {
    // 16-bit elements travel as their bits.
    unsigned short o[W], b[W];
#pragma unroll
    for (int k = 0; k < W; ++k)
      b[k] = reinterpret_cast<const unsigned short &>(v[k]);
    constexpr bool kHalf = is_same_v<T, __half>;
    if constexpr (W == 2) {
      if constexpr (kHalf) {
        TILEC_ATOM_ORDERED(TILEC_ATOM_ADD_V2, ".noftz.v2.f16", "h", o, p, b)
      } else {
        TILEC_ATOM_ORDERED(TILEC_ATOM_ADD_V2, ".noftz.v2.bf16", "h", o, p, b)
      }
    } else if constexpr (W == 4) {
      if constexpr (kHalf) {
        TILEC_ATOM_ORDERED(TILEC_ATOM_ADD_V4, ".noftz.v4.f16", "h", o, p, b)
      } else {
        TILEC_ATOM_ORDERED(TILEC_ATOM_ADD_V4, ".noftz.v4.bf16", "h", o, p, b)
      }
    } else {
      if constexpr (kHalf) {
        TILEC_ATOM_ORDERED(TILEC_ATOM_ADD_V8, ".noftz.v8.f16", "h", o, p, b)
      } else {
        TILEC_ATOM_ORDERED(TILEC_ATOM_ADD_V8, ".noftz.v8.bf16", "h", o, p, b)
      }
    }
#pragma unroll
    for (int k = 0; k < W; ++k)
      old[k] = reinterpret_cast<const T &>(o[k]);
  }
}

} // namespace detail

#undef TILEC_ATOM_ADD_V2
#undef TILEC_ATOM_ADD_V4
#undef TILEC_ATOM_ADD_V8

/// old[k] = p[k]; p[k] += vals[k] for each k < W whose mask is on, on the owner of the run
/// only (threads holding copies add nothing); old[k] is 0 where nothing was added. `vals` is
/// a run (const T *) or one value, `mask` a run of flags or one flag. MASK_UNIFORM: the run's
/// flags are all equal (then a masked-on run takes the vector path).
template <int W, bool MASK_UNIFORM, MemSem SEM = MemSem::acq_rel, MemScope SCOPE = MemScope::gpu,
          class T, class V, class M>
__device__ inline void atomic_add_vec(T *old, T *p, V vals, M mask, bool owner) {
  if constexpr (detail::has_vector_atom<T, W>()) {
    if (owner && detail::run_all_on<W, MASK_UNIFORM>(mask)) {
      T v[W];
#pragma unroll
      for (int k = 0; k < W; ++k)
        v[k] = detail::run_value<T>(vals, k);
      detail::vector_atom_add<SEM, SCOPE, W>(old, p, v);
      return;
    }
  }
#pragma unroll
  for (int k = 0; k < W; ++k)
    old[k] = (owner && detail::run_mask(mask, k))
                 ? atomic_add<SEM, SCOPE>(p + k, detail::run_value<T>(vals, k))
                 : T(0);
}

/// The same without a mask.
template <int W, MemSem SEM = MemSem::acq_rel, MemScope SCOPE = MemScope::gpu, class T, class V>
__device__ inline void atomic_add_vec(T *old, T *p, V vals, bool owner) {
  atomic_add_vec<W, true, SEM, SCOPE>(old, p, vals, true, owner);
}

} // namespace tilec
