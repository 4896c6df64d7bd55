#include <tilec/tl.h>
// A template helper: the shape and type come from the argument.
template <class T, int N>
TILEC_FUNC tl::tile<float, N> normalize(tl::tile<T, N> x, float eps) {
  auto xf = tl::cast<float>(x);
  float mu = tl::sum(xf) / N;
  auto d = xf - mu;
  auto z = tl::zeros<float, N>();
  return d * tl::rsqrt(tl::sum(d * d) / N + eps) + z;
}
template <int K>
TILEC_FUNC auto scale_by(auto t) { return t * K; }

template <int BLOCK>
TILEC_KERNEL void norm_rows(const tl::half* x, float* out, int stride) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto v = tl::load(x + row * stride + cols);
  tl::store(out + row * stride + cols, scale_by<2>(normalize(v, 1e-5f)));
}

// IR-LABEL: kernel @norm_rows<int BLOCK>
// The helper's T is the argument's element type and its N the argument's size:
// IR:      %{{[0-9]+}}:xf = cast %{{[0-9]+}}:v : tile<float, BLOCK>
// IR:      %{{[0-9]+}} = constant [BLOCK] : int
// IR:      %{{[0-9]+}}:z = splat %{{[0-9]+}} : tile<float, BLOCK>
// An explicit template argument:
// IR:      constant [2.0f] : float
