// tl::join on the GPU: two loaded tiles interleaved into [B, 2], and two scalars into [2].
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void joined(const float *x, const float *y, float *out, int n) {
  auto i = tl::program_id(0) * B + tl::arange<0, B>();
  auto j = tl::join(tl::load(x + i, i < n, 0.0f), tl::load(y + i, i < n, 0.0f));
  tl::store(out + tl::expand_dims<1>(i) * 2 + tl::expand_dims<0>(tl::arange<0, 2>()), j,
            tl::expand_dims<1>(i) < n);
  tl::store(out + 2 * n + tl::arange<0, 2>(), tl::join(1.5f, 2.5f));
}

// Triton's interleave, cat and ravel: two rank-1 tiles interleaved and cat'ed (cat's order is
// the interleaving), and a [4, B / 4] tile interleaved with its double into [4, B / 2], stored
// through raveled offsets.
template <int B>
TILEC_KERNEL void interleaved(const float *x, const float *y, float *out, int n) {
  auto i = tl::arange<0, B>();
  auto a = tl::load(x + i, i < n, -1.0f);
  auto b = tl::load(y + i, i < n, -2.0f);
  tl::store(out + tl::arange<0, 2 * B>(), tl::interleave(a, b));
  tl::store(out + 2 * B + tl::arange<0, 2 * B>(), tl::cat(b, a));
  auto r = tl::expand_dims<1>(tl::arange<0, 4>());
  auto c = tl::expand_dims<0>(tl::arange<0, B / 4>());
  auto m = tl::load(x + r * (B / 4) + c, r * (B / 4) + c < n, 0.0f);
  auto w = tl::interleave(m, m * 2.0f); // [4, B / 2]
  auto offs = r * (B / 2) + tl::expand_dims<0>(tl::arange<0, 2 * (B / 4)>()); // w's shape
  tl::store(out + 4 * B + tl::ravel(offs), tl::ravel(w));
}
