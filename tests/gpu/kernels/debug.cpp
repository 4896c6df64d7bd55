// tl::device_print and tl::device_assert: tiles of rank 1 to 3 (including a [B, 1] tile
// held like a rank-1 tile), scalars, several operands, and assertions on tiles and scalars.
#include <tilec/tl.h>

template <int B> TILEC_KERNEL void print_tiles(const float *x, int n) {
  auto offs = tl::arange<0, B>();
  tl::device_print("x", tl::load(x + offs, offs < n, -1.0f));
  auto grid = tl::expand_dims<1>(offs) * 10 + tl::expand_dims<0>(tl::arange<0, 4>());
  tl::device_print("grid", grid, n);
  tl::device_print("inside", tl::expand_dims<1>(offs) < n);
  auto depth = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, 2>()));
  tl::device_print("cube", tl::expand_dims<2>(grid) * 10 + depth); // [B, 4, 2]
}

template <int B> TILEC_KERNEL void check_positive(const int *x, int n) {
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();
  auto v = tl::load(x + offs, offs < n, 1);
  tl::device_assert(v > 0, "values must be positive");
  tl::device_assert(n > 0, "n must be positive");
}
