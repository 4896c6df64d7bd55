// --dump-after=all prints the IR after the frontend and after every pass of the pipeline, in
// order, each under its banner.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void scale(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n) * 2.0f, offs < n);
}

// IR:      // -----// IR after frontend //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR-NEXT:   %0:x = param [0] : const float*
// IR:      // -----// IR after axis-info //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR:      // -----// IR after transpose-loads //----- //
// IR:      // -----// IR after layout //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR-NEXT:   layout #0 blocked[BLOCK] max_vec=tilec::cmin(4, tilec::gcd((out_aligned ? 16 : 4), tilec::pow2_factor(BLOCK) * 4) / 4)
// IR:      // -----// IR after remat //----- //
// IR:      // -----// IR after fuse-dot-transpose //----- //
// IR:      // -----// IR after hoist-dot-operands //----- //
// IR:      // -----// IR after pipeline //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR:      // -----// IR after dot-registers //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR:      // -----// IR after lower-pipeline //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR:      // -----// IR after k-major-operands //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR:      // -----// IR after allocate-smem //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR:      // -----// IR after order-memory //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR:      // -----// IR after warp-specialize //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR:      // -----// IR after persistent-programs //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR:      // -----// IR after zero-accumulators //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR:      // -----// IR after overlap-dots //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR:      // -----// IR after sink-widening-casts //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR:      // -----// IR after prefetch-rows //----- //
// IR-NEXT: kernel @scale<int BLOCK>(const float* x, float* out, int n)
// IR-NOT:  // -----//
