// order-memory and loops: an access before a loop that conflicts with one inside it is ordered
// by one barrier before the loop, not by one in every iteration (Liger-Kernel's cross-entropy
// reads x[y] before rewriting the whole row in a loop). Two spellings of the loop. When the
// body's own accesses conflict across iterations (a tile store, then one element rewritten),
// the barrier stays inside.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void scale_by_first(float *x, int n) {
  float first = tl::load(x);
  for (int i = 0; i < n; i += BLOCK) {
    auto offs = i + tl::arange<0, BLOCK>();
    tl::store(x + offs, tl::load(x + offs, offs < n) / first, offs < n);
  }
}

template <int BLOCK>
TILEC_KERNEL void scale_by_first_range(float *x, int n) {
  float first = tl::load(x);
  for (int i : tl::range(0, n, BLOCK)) {
    auto offs = i + tl::arange<0, BLOCK>();
    tl::store(x + offs, tl::load(x + offs, offs < n) / first, offs < n);
  }
}

template <int BLOCK>
TILEC_KERNEL void mark_each_block(float *x, int n) {
  for (int i = 0; i < n; i += BLOCK) {
    auto offs = i + tl::arange<0, BLOCK>();
    tl::store(x + offs, tl::full<float, BLOCK>(1.0f), offs < n);
    tl::store(x + i, -1.0f);
  }
}

// CU-LABEL: scale_by_first(
// CU:       other threads' accesses before the loop come first
// CU-NEXT:  __syncthreads();
// CU-NEXT:  // order_memory_loops.cpp:11: for (int i = 0; i < n; i += BLOCK)  [the blocks in which every mask is true: unmasked]
// CU-NEXT:  int i_next = 0;
// CU-NEXT:  #pragma unroll 1
// CU-NEXT:  for (
// CU-NOT:   __syncthreads();
// CU-LABEL: scale_by_first_range(
// CU:       other threads' accesses before the loop come first
// CU-NEXT:  __syncthreads();
// CU-NEXT:  // order_memory_loops.cpp:20: for (int i : tl::range(0, n, BLOCK))  [the blocks in which every mask is true: unmasked]
// CU-NEXT:  int i_next = 0;
// CU-NEXT:  #pragma unroll 1
// CU-NEXT:  for (
// CU-NOT:   __syncthreads();
// CU-LABEL: mark_each_block(
// CU-NOT:   before the loop
// CU:       for (
// CU:       order_memory_loops.cpp:30: other threads' accesses to these elements come first
// CU-NEXT:  __syncthreads();
// CU:       order_memory_loops.cpp:31: other threads' accesses to these elements come first
// CU-NEXT:  __syncthreads();
// CU-NEXT:  // order_memory_loops.cpp:31: tl::store(x + i, -1.0f)
