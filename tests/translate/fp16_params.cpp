// Concrete 16-bit float element types in the signature: tl::half and tl::bfloat16 keep their
// names in the generated code (device/common/types.cuh maps them to __half / __nv_bfloat16).
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void half_add(const tl::half* x, const tl::half* y, tl::half* out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask);
  tl::store(out + offs, a + b, mask);
}

template <int BLOCK>
TILEC_KERNEL void bf16_to_float(const tl::bfloat16* x, float* out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(out + offs, tl::cast<float>(tl::load(x + offs, mask)), mask);
}

// CU-LABEL: half_add(const tl::half* x, const tl::half* y, tl::half* out, int n) {
// 16 bytes are 8 halves.
// CU:         using L0 = tilec::Blocked1D<BLOCK, THREADS, L0_RUN>;
// CU:         tl::half a[L0::ELEMS];
// CU:           tilec::load_vec<a_width, a_mask_uniform>(&a[i], (x + offs[i]), &mask[i], tilec::cast<tl::half>(0));
// CU:         tl::half [[S:t[0-9]+]][L0::ELEMS];
// CU-NEXT:  #pragma unroll
// CU-NEXT:    for (int i = 0; i < L0::ELEMS; ++i) [[S]][i] = (a[i] + b[i]);
// CU-LABEL: bf16_to_float(const tl::bfloat16* x, float* out, int n) {
// The runs are the store's: 4 floats (16 bytes) a thread, the bf16 load 8 bytes. Runs of 8,
// the load's widest, would store each run in two pieces 32 bytes apart.
// CU:         constexpr int L0_RUN = tilec::vector_width(tilec::cmin(4, tilec::gcd((out_aligned ? 16 : 4), tilec::pow2_factor(BLOCK) * 4) / 4));
// CU:         using L0 = tilec::Blocked1D<BLOCK, THREADS, L0_RUN>;
// CU:         tl::bfloat16 [[L:t[0-9]+]][L0::ELEMS];
// CU:         float [[C:t[0-9]+]][L0::ELEMS];
// CU:         [[C]][i] = tilec::cast<float>([[L]][i]);
