// What the contiguity analysis keeps through an exact division by a power of two and through
// tl::where, as RoPE kernels spell them (Liger-Kernel's: the second half of a head at
// `offs + hd / 2`, the cos row chosen by `tl.where(cos_bs == 1, ...)`): the halves stay
// 16-byte aligned and the mask `offs < hd / 2` stays uniform over vector runs, so the loads
// are vectors rather than element by element. Two spellings of the half: `HD / 2` and
// `HALF` given directly.
#include <tilec/tl.h>

template <int HD, int PAD>
TILEC_KERNEL void rotate_half(const float *x, const float *cos, float *out, int stride,
                              int cos_stride, int rows_of_cos) {
  int64_t pid = tl::program_id(0);
  auto offs = tl::arange<0, PAD / 2>();
  auto mask = offs < HD / 2;
  const float *c = cos + tl::where(rows_of_cos == 1, int64_t(0), pid * cos_stride);
  auto cv = tl::load(c + offs, mask, 0.0f);
  auto lo = tl::load(x + pid * stride + offs, mask, 0.0f);
  auto hi = tl::load(x + pid * stride + offs + HD / 2, mask, 0.0f);
  tl::store(out + pid * stride + offs, lo * cv - hi, mask);
}

template <int HALF, int PAD>
TILEC_KERNEL void rotate_half_given(const float *x, float *out, int stride) {
  int64_t pid = tl::program_id(0);
  auto offs = tl::arange<0, PAD / 2>();
  auto mask = offs < HALF;
  auto hi = tl::load(x + pid * stride + offs + HALF, mask, 0.0f);
  tl::store(out + pid * stride + offs, hi, mask);
}

// The mask flips only at a multiple of HD's factor halved (at least 1: HD may be odd).
// IR-LABEL: kernel @rotate_half<int HD, int PAD>
// IR:       %{{[0-9]+}}:mask = binary "<" {{.*}} const=tilec::gcd(PAD / 2, tilec::pow2_factor(HD) / tilec::gcd(tilec::pow2_factor(HD), 2))}
// IR-LABEL: kernel @rotate_half_given<int HALF, int PAD>
// IR:       %{{[0-9]+}}:mask = binary "<" {{.*}} const=tilec::gcd(PAD / 2, tilec::pow2_factor(HALF))}

// The cos row: aligned as both arms of the where are (0, and a multiple of cos_stride).
// The upper half: aligned as far as HD / 2 allows.
// CU-LABEL: rotate_half(
// CU:       constexpr int cv_width = {{.*}}(cos_stride_div16 ? 64 : 4)
// CU:       constexpr int hi_width = {{.*}}(tilec::pow2_factor(HD) / tilec::gcd(tilec::pow2_factor(HD), 2)) * 4
// CU:       constexpr bool hi_mask_uniform = tilec::gcd(PAD / 2, tilec::pow2_factor(HD) / tilec::gcd(tilec::pow2_factor(HD), 2)) % hi_width == 0;
