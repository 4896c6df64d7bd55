// order-memory: a barrier between global accesses that other threads could make to the same
// element, one of them writing. The gradient row is stored by all threads, then one element
// is overwritten by thread 0 (Triton's cross-entropy does this): a barrier comes between. The
// input x is only read: its loads need none, nor does the row's store after them (another
// argument). tl::debug_barrier() asks for one by hand; the pass then adds none. A branch that
// zeroes the row and returns (an ignored target) precedes nothing after it: no barrier before
// the target's load, where a branch that goes on needs one.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void grad_row(const float *x, float *g, int n, int target) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n, 0.0f);
  tl::store(g + offs, v * 2.0f, offs < n);
  tl::store(g + target, tl::load(x + target) - 1.0f);
}

template <int BLOCK>
TILEC_KERNEL void by_hand(float *g, int n, int target) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(g + offs, tl::full<float, BLOCK>(1.0f), offs < n);
  tl::debug_barrier();
  tl::store(g + target, -1.0f);
}

template <int BLOCK>
TILEC_KERNEL void ignored_row(float *g, float *loss, int n, int target, int ignore) {
  if (target == ignore) {
    auto offs = tl::arange<0, BLOCK>();
    tl::store(g + offs, 0.0f, offs < n);
    return;
  }
  tl::store(loss, tl::load(g + target) - 1.0f);
}

template <int BLOCK>
TILEC_KERNEL void zeroed_row(float *g, float *loss, int n, int target, int ignore) {
  if (target == ignore) {
    auto offs = tl::arange<0, BLOCK>();
    tl::store(g + offs, 0.0f, offs < n);
  }
  tl::store(loss, tl::load(g + target) - 1.0f);
}

// IR-LABEL: kernel @grad_row
// IR-NOT:   barrier
// IR:       store %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}
// IR-NOT:   barrier
// IR:       = load %{{[0-9]+}} : float
// IR:       barrier
// IR-NEXT:  store %{{[0-9]+}}, %{{[0-9]+}}
// IR-LABEL: kernel @by_hand
// IR:       barrier
// IR-NOT:   barrier
// IR:       store

// IR-LABEL: kernel @ignored_row
// IR-NOT:   barrier
// IR-LABEL: kernel @zeroed_row
// IR:       barrier
// IR-NEXT:  = load %{{[0-9]+}} : float

// CU-LABEL: grad_row(
// CU:       tilec::store_vec<
// CU:       // order_memory.cpp:15: other threads' accesses to these elements come first
// CU-NEXT:  __syncthreads();
// CU-NEXT:  // order_memory.cpp:15: tl::store(g + target, tl::load(x + target) - 1.0f)
// CU-NEXT:  if (tid == 0) *(g + target) =
// CU-LABEL: by_hand(
// CU:       // order_memory.cpp:22: tl::debug_barrier()
// CU-NEXT:  __syncthreads();
// CU-NOT:   __syncthreads();
// CU-LABEL: ignored_row(
// CU-NOT:   __syncthreads();
// CU-LABEL: zeroed_row(
// CU:       // order_memory.cpp:{{[0-9]+}}: other threads' accesses to these elements come first
// CU-NEXT:  __syncthreads();
// CU-NEXT:  // order_memory.cpp:{{[0-9]+}}: tl::load(g + target)
