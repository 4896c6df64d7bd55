// tilec/tl/macros.h - the annotations that mark kernels and the helpers they call.
//
// The translator finds kernels and helpers through clang's `annotate` attribute; other
// compilers (the interpreter may be built with any C++20 compiler) see plain functions.
#pragma once

#if defined(__clang__)
/// Marks a kernel: `template <int BLOCK> TILEC_KERNEL void add_kernel(...)`.
#define TILEC_KERNEL __attribute__((annotate("tilec.kernel")))
/// Marks a helper that kernels call (Triton's nested @triton.jit); always inlined.
#define TILEC_FUNC __attribute__((annotate("tilec.func"))) inline
#else
#define TILEC_KERNEL
#define TILEC_FUNC inline
#endif
