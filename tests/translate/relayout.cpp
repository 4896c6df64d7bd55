// trans and reshape move elements between threads through shared memory; the padded
// transpose buffer and the reshape buffer share the kernel's one shared-memory buffer.
#include <tilec/tl.h>

template <int BM, int BN>
TILEC_KERNEL void relayout(const float* x, float* out_t, float* out_flat) {
  auto rows = tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto v = tl::load(x + tl::expand_dims<1>(rows) * BN + tl::expand_dims<0>(cols));
  auto t = tl::trans(v);
  auto same = tl::permute<0, 1>(v); // the identity permutation moves nothing
  tl::store(out_t + tl::expand_dims<1>(cols) * BM + tl::expand_dims<0>(rows), t);
  tl::store(out_flat + tl::arange<0, BM * BN>(), tl::reshape<BM * BN>(same));
}

// IR:      %{{[0-9]+}}:t = trans %{{[0-9]+}}:v : tile<float, BN, BM>
// IR:      = reshape %{{[0-9]+}}:v : tile<float, BM * BN>

// CU:      using L0 = tilec::Blocked2D<BM, BN, THREADS, L0_RUN>;
// CU:      __shared__ alignas(16) unsigned char smem[{{.*}}tilec::transpose_bytes<L0, float>(){{.*}}tilec::tile_elements<L0>() * sizeof(float){{.*}}];
// CU:      // transposed through shared memory
// CU-NEXT: float t[{{L[0-9]+}}::ELEMS];
// CU-NEXT: tilec::transpose<L0, {{L[0-9]+}}>(v, t, tid, smem);
// CU:      // reshaped through shared memory
// CU:      tilec::reshape<L0, {{L[0-9]+}}>(v, {{t[0-9]+}}, tid, smem);
