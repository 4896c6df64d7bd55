// Tiles that exist only in an `if constexpr` branch may have a dimension that is 0 (or not a
// power of two) where the branch is discarded, as Triton drops a false constexpr branch (vLLM's
// MLA decode: `if BLOCK_DPE > 0:` with BLOCK_DPE = 0 otherwise). The dimension checks hold
// under the branch's condition only; a rank-1 tile made outside the branch and broadcast inside
// it is converted inside (not where it is defined, where the branch's layout would have to
// exist); the shared-memory sizing of the branch's dot compiles with the 0; a static_assert in
// the branch stays there (the launcher does not repeat it).
#include <tilec/tl.h>

template <int BM, int BN, int BD, int BPE>
TILEC_KERNEL void scores(const tl::half *q, const tl::half *k, float *out, int n) {
  auto rows = tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto offs_d = tl::arange<0, BD>();
  auto qt = tl::load(q + tl::expand_dims<1>(rows) * (BD + BPE) + tl::expand_dims<0>(offs_d));
  auto kt = tl::load(k + tl::expand_dims<0>(cols) * (BD + BPE) + tl::expand_dims<1>(offs_d),
                     tl::expand_dims<0>(cols) < n, 0.0f);
  auto s = tl::dot(qt, kt);
  if constexpr (BPE > 0) {
    static_assert(BPE >= 16, "the rope part is at least 16 wide");
    auto offs_pe = BD + tl::arange<0, BPE>();
    auto qpe = tl::load(q + tl::expand_dims<1>(rows) * (BD + BPE) + tl::expand_dims<0>(offs_pe));
    auto kpe = tl::load(k + tl::expand_dims<0>(cols) * (BD + BPE) + tl::expand_dims<1>(offs_pe),
                        tl::expand_dims<0>(cols) < n, 0.0f);
    s += tl::dot(qpe, kpe);
  }
  tl::store(out + tl::expand_dims<1>(rows) * BN + tl::expand_dims<0>(cols), s,
            tl::expand_dims<0>(cols) < n);
}

// CU:      static_assert(tilec::tile_dim_ok(BD),
// CU:      static_assert(!((BPE > 0)) || tilec::tile_dim_ok(BPE),
// CU:      static_assert(!((BPE > 0)) || tilec::tile_elems_ok(BM, BPE),
// CU:      if constexpr (BPE > 0) {
// CU:        static_assert(BPE >= 16, "the rope part is at least 16 wide");
// CU:        // constexpr_zero_dims.cpp:{{[0-9]+}}: tl::arange<0, BM>()
// CU-NEXT:   int rows_{{[0-9]+}}[{{L[0-9]+}}::ELEMS];

// H:       inline void scores(
// H-NOT:   tile_dim(BPE)
// H-NOT:   the rope part
// H:       static tilec::Kernel
