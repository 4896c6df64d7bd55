// Scalar loads and stores (one value per program instance), with and without a mask and
// an explicit `other`.
#include <tilec/tl.h>

TILEC_KERNEL void scalar_copy(const float* x, float* out, int n) {
  int pid = tl::program_id(0);
  float v = tl::load(x + pid);
  float w = tl::load(x + pid + 1, pid + 1 < n, -1.0f);
  float z = tl::load(x + pid, pid < n);
  tl::store(out + pid, v + w + z);
  tl::store(out + n + pid, v, pid < n);
}

// IR-LABEL: kernel @scalar_copy<>
// IR:       %{{[0-9]+}}:v = load %{{[0-9]+}} : float  {width=1
// IR:       %{{[0-9]+}}:w = load %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : float  {width=1
// IR:       store %{{[0-9]+}}, %{{[0-9]+}}  {width=1
// IR:       store %{{[0-9]+}}, %{{[0-9]+}}:v, %{{[0-9]+}}  {width=1

// A scalar load is a plain dereference; a masked one never dereferences when off.
// CU:       const float v = *(x + pid);
// CU:       const float w = ((pid + 1) < n) ? *((x + pid) + 1) : (-1.0f);
// CU:       const float z = (pid < n) ? *(x + pid) : 0.0f;
// One thread stores a scalar for the whole program instance.
// CU:       if (tid == 0) *(out + pid) = ((v + w) + z);
// CU:       if (tid == 0 && (pid < n)) *((out + n) + pid) = v;
// CU-NOT:   load_vec
