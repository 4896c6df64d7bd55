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
