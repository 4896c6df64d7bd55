// compat.cuh: the few standard-library pieces generated code needs, under NVRTC (which has
// no standard library) and nvcc alike.
#pragma once

#if defined(__CUDACC_RTC__)
// NVRTC: no <cstdint>. These match the LP64 data model CUDA uses on every supported host.
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#else
#include <cstdint>
#endif

#include <cuda_bf16.h>
#include <cuda_fp16.h>
// fp8 only where a kernel uses it (TILEC_FP8, defined by the generated source or the
// compiler flags): cuda_fp8.h adds about a third to the compile time of a small kernel.
#if defined(TILEC_FP8)
#include <cuda_fp8.h>
#endif

namespace tilec {
// Minimal <type_traits>: is_same and enable_if are all the library needs.
template <class A, class B> struct is_same {
  static constexpr bool value = false;
};
template <class A> struct is_same<A, A> {
  static constexpr bool value = true;
};
template <class A, class B> inline constexpr bool is_same_v = is_same<A, B>::value;
template <bool C, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> {
  using type = T;
};
} // namespace tilec
