// Atomics with Triton's `sem=` / `scope=`: trailing tl::sem / tl::scope arguments become the
// op's attrs [sem] [scope] (absent for the default: acq_rel at GPU scope) and the device
// call's template arguments; with or without a mask, and on atomic_cas. Float adds to
// consecutive addresses get an access width, as stores do.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void ordered(int *counts, float *sums, unsigned *flags, int *lock, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::atomic_add(counts + offs % 4, 1, tl::sem::relaxed);
  tl::atomic_add(sums + offs % 4, 0.5f, mask, tl::sem::release, tl::scope::cta);
  tl::atomic_or(flags + offs % 2, 1u, mask, tl::sem::acq_rel, tl::scope::gpu);
  tl::atomic_max(counts + 4 + offs % 2, offs, mask, tl::scope::sys);
  tl::atomic_add(sums + 4, 1.0f, mask); // a plain pointer, once per lane of the mask
  int old = tl::atomic_cas(lock, 0, 1, tl::sem::acquire);
  tl::store(counts + 6, old);
}

// IR-LABEL: kernel @ordered<int BLOCK>
// IR:       = atomic "add" {{.*}} [0] [1] : tile<int, BLOCK>
// IR:       = atomic "add" {{.*}} [2] [0] : tile<float, BLOCK>
// IR:       = atomic "or" {{.*}} : tile<unsigned, BLOCK>
// IR-NOT:   [3] [1]
// IR:       = atomic "max" {{.*}} [3] [2] : tile<int, BLOCK>
// IR:       = splat %{{[0-9]+}} : tile<float*, BLOCK>
// IR:       = atomic "add" {{.*}}, %10:mask : tile<float, BLOCK>
// IR:       :old = atomic "cas" {{.*}} [1] [1] : int

// CU:       tilec::atomic_add<tilec::MemSem::relaxed, tilec::MemScope::gpu>(
// Float adds over consecutive addresses go a run at a time (one vector atom on sm_90).
// CU:       tilec::atomic_add_vec<[[W:t[0-9]+_width]], t{{[0-9]+}}_mask_uniform, tilec::MemSem::release, tilec::MemScope::cta>(
// CU:       tilec::atomic_or(
// CU:       tilec::atomic_max<tilec::MemSem::acq_rel, tilec::MemScope::sys>(
// CU:       (L0::owner(tid) && mask[i]) ? tilec::atomic_add(
// CU:       tilec::atomic_cas<tilec::MemSem::acquire, tilec::MemScope::gpu>(
