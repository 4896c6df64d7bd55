// debug.cuh: tl::device_print and tl::device_assert in generated code, in the interpreter's
// formats (runtime/include/tilec/tl/debug.h):
//
//   pid (0, 2, 0) idx (3, 1) x: 1.5
//
// One printf per line, so lines of different threads never mix (their order is unspecified).
// Floats print with 9 significant digits, doubles with 17, 16-bit floats as float.
#pragma once

#include <tilec/device/common/elementwise.cuh>

#if !defined(__CUDACC_RTC__)
// NVRTC declares printf and CUDA's assertion handler itself; under nvcc printf comes from
// <cstdio> and the handler is reached only through <assert.h>'s macro.
#include <cstdio>
extern "C" __device__ void __assertfail(const char *message, const char *file, unsigned line,
                                        const char *function, size_t char_size);
#endif

namespace tilec {
namespace detail {

// One line for a value printed with the printf conversion FMT; rank 0 has no idx part.
#define TILEC_PRINT_LINE(FMT, X)                                                                   \
  do {                                                                                             \
    if (rank == 0)                                                                                 \
      printf("pid (%u, %u, %u) %s: " FMT "\n", blockIdx.x, blockIdx.y, blockIdx.z, prefix, X);     \
    else if (rank == 1)                                                                            \
      printf("pid (%u, %u, %u) idx (%d) %s: " FMT "\n", blockIdx.x, blockIdx.y, blockIdx.z, i0,    \
             prefix, X);                                                                           \
    else if (rank == 2)                                                                            \
      printf("pid (%u, %u, %u) idx (%d, %d) %s: " FMT "\n", blockIdx.x, blockIdx.y, blockIdx.z,    \
             i0, i1, prefix, X);                                                                   \
    else                                                                                           \
      printf("pid (%u, %u, %u) idx (%d, %d, %d) %s: " FMT "\n", blockIdx.x, blockIdx.y,            \
             blockIdx.z, i0, i1, i2, prefix, X);                                                   \
  } while (0)

template <class T>
__device__ inline void print_line(const char *prefix, int rank, int i0, int i1, int i2, T v) {
  if constexpr (is_same_v<T, bool>)
    TILEC_PRINT_LINE("%d", int(v));
  else if constexpr (is_same_v<T, double>)
    TILEC_PRINT_LINE("%.17g", v);
  else if constexpr (type_rank<T>::kind == 2)
    TILEC_PRINT_LINE("%.9g", double(to_float(v)));
  else if constexpr (type_rank<T>::is_signed)
    TILEC_PRINT_LINE("%lld", (long long)v);
  else
    TILEC_PRINT_LINE("%llu", (unsigned long long)v);
}

template <class T>
__device__ inline void print_line(const char *prefix, int rank, int i0, int i1, int i2, T *v) {
  TILEC_PRINT_LINE("%p", static_cast<const void *>(v));
}

#undef TILEC_PRINT_LINE

} // namespace detail

/// One line of tl::device_print for a scalar (`prefix` names the operand).
template <class T> __device__ inline void device_print(const char *prefix, T v) {
  detail::print_line(prefix, 0, 0, 0, 0, v);
}

/// ... for element `i0` of a rank-1 tile.
template <class T> __device__ inline void device_print(const char *prefix, int i0, T v) {
  detail::print_line(prefix, 1, i0, 0, 0, v);
}

/// ... for element (i0, i1) of a rank-2 tile.
template <class T> __device__ inline void device_print(const char *prefix, int i0, int i1, T v) {
  detail::print_line(prefix, 2, i0, i1, 0, v);
}

/// ... for element (i0, i1, i2) of a rank-3 tile.
template <class T>
__device__ inline void device_print(const char *prefix, int i0, int i1, int i2, T v) {
  detail::print_line(prefix, 3, i0, i1, i2, v);
}

/// A failed tl::device_assert: prints the interpreter's message after the kernel source's
/// location (`element` is the row-major index of the failing element, 0 for a scalar), then
/// fails as CUDA's assert does: the kernel stops and the host sees an error at its next
/// synchronization.
__device__ inline void device_assert_fail(const char *message, const char *file, unsigned line,
                                          const char *function, int element) {
  printf("%s:%u: device_assert failed in program (%u, %u, %u), element %d: %s\n", file, line,
         blockIdx.x, blockIdx.y, blockIdx.z, element, message);
  __assertfail(message, file, line, function, sizeof(char));
}

} // namespace tilec
