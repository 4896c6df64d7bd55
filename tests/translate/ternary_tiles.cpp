// `?:` with a scalar condition (a template parameter, or a run-time value) and tile arms that
// touch no memory: both arms are computed and one is selected, as tl::where would with a
// scalar condition. The arms promote as a tile with a scalar does.
#include <tilec/tl.h>

template <int BLOCK, bool SQUARE>
TILEC_KERNEL void pick(const float *x, float *out, int n, int flip) {
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n, 0.0f);
  auto y = SQUARE ? v * v : v + 1.0f;
  auto z = flip > 0 ? -y : y;
  auto w = flip > 1 ? tl::cast<int>(z) : 3;
  tl::store(out + offs, z + w, offs < n);
}

// IR-LABEL: kernel @pick
// IR:       :y = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<float, BLOCK>
// IR:       :z = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}:y : tile<float, BLOCK>
// IR:       :w = select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<int, BLOCK>
// CU:       y[i] = (SQUARE ? (v[i] * v[i]) : (v[i] + 1.0f));
