// A value chosen by a branch keeps the facts both arms give it: the alignment of a pointer
// set in each arm of an `if constexpr` (Unsloth's `dX = dY` for in-place gradients) is that
// of the arm the specialization takes, and after a run-time `if` the facts common to both
// arms hold. Stores through such a pointer are as wide as through the arguments themselves.
#include <tilec/tl.h>

template <int BLOCK, bool IN_PLACE>
TILEC_KERNEL void scale_rows(float *dY, float *dX, const float *w, int stride, int n,
                             int flag) {
  int row = tl::program_id(0);
  auto offs = tl::arange<0, BLOCK>();
  auto mask = offs < n;
  dY += row * stride;
  if constexpr (IN_PLACE)
    dX = dY;
  else
    dX += row * stride;
  float *alt = dY;
  if (flag > 0)
    alt = dX;
  auto v = tl::load(dY + offs, mask) * tl::load(w + offs, mask);
  tl::store(dX + offs, v, mask);
  tl::store(alt + offs, v, mask);
}

// CU-LABEL: scale_rows(
// The pointer the `if constexpr` picks: the taken arm's alignment.
// CU:       store_width = tilec::vector_width(tilec::cmin(L0::VEC, (IN_PLACE ? tilec::gcd((dY_aligned ? 16 : 4), (stride_div16 ? 64 : 4)) / 4 : tilec::gcd((dX_aligned ? 16 : 4), (stride_div16 ? 64 : 4)) / 4)));
// After a run-time `if`: what both arms share.
// CU:       store_width_1 = tilec::vector_width(tilec::cmin(L0::VEC, tilec::gcd((IN_PLACE ? {{.*}}), tilec::gcd((dY_aligned ? 16 : 4), (stride_div16 ? 64 : 4))) / 4));
