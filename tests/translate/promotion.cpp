// Triton's type promotion, as the IR shows it: a scalar never widens a tile (except an
// integer tile with a float scalar); two tiles promote to the wider type; f16 with f32 is f32.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void promote(const tl::half* h, const float* f, const int* i, const int8_t* c,
                          const unsigned* u, tl::half* out_h, float* out_f, int* out_i,
                          unsigned* out_u, int8_t* out_c) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto ht = tl::load(h + offs);
  auto ft = tl::load(f + offs);
  auto it = tl::load(i + offs);
  auto ct = tl::load(c + offs);
  auto ut = tl::load(u + offs);
  auto half_scalar = ht + 2.0f;
  auto int_float = it * 0.5f;
  auto half_float = ht + ft;
  auto narrow_wide = ct + it;
  auto signed_unsigned = it + ut;
  auto narrow_scalar = ct * 3;
  float s = 1;
  auto scalars = s + 1;
  tl::store(out_h + offs, half_scalar);
  tl::store(out_f + offs, int_float + half_float + scalars);
  tl::store(out_i + offs, narrow_wide);
  tl::store(out_u + offs, signed_unsigned);
  tl::store(out_c + offs, narrow_scalar);
}

// IR-LABEL: kernel @promote<int BLOCK>
// tile<half> + float scalar stays half: the scalar converts.
// IR:       %[[TWO:[0-9]+]] = constant [2.0f] : float
// IR-NEXT:  %[[TWOH:[0-9]+]] = cast %[[TWO]] : tl::half
// IR-NEXT:  :half_scalar = binary "+" %{{[0-9]+}}:ht, %[[TWOH]] : tile<tl::half, BLOCK>
// int tile * float scalar gives float.
// IR:       = cast %{{[0-9]+}}:it : tile<float, BLOCK>
// IR-NEXT:  :int_float = binary "*" %{{[0-9]+}}, %{{[0-9]+}} : tile<float, BLOCK>
// half tile + float tile gives float.
// IR:       = cast %{{[0-9]+}}:ht : tile<float, BLOCK>
// IR-NEXT:  :half_float = binary "+" %{{[0-9]+}}, %{{[0-9]+}}:ft : tile<float, BLOCK>
// int8 tile + int tile gives int.
// IR:       = cast %{{[0-9]+}}:ct : tile<int, BLOCK>
// IR-NEXT:  :narrow_wide = binary "+" %{{[0-9]+}}, %{{[0-9]+}}:it : tile<int, BLOCK>
// Same width: unsigned wins.
// IR:       = cast %{{[0-9]+}}:it : tile<unsigned, BLOCK>
// IR-NEXT:  :signed_unsigned = binary "+" %{{[0-9]+}}, %{{[0-9]+}}:ut : tile<unsigned, BLOCK>
// int8 tile * int literal stays int8.
// IR:       = constant [3] : int8_t
// IR-NEXT:  :narrow_scalar = binary "*" %{{[0-9]+}}:ct, %{{[0-9]+}} : tile<int8_t, BLOCK>
// Scalars follow C++.
// IR:       :scalars = binary "+" %{{[0-9]+}}:s, %{{[0-9]+}} : float

// A variable initialized by a literal folds into its uses; scalars are written before the
// loop of the tile values around them.
// CU:       const float scalars = (1.0f + 1.0f);
// CU:       half_scalar[i] = (ht[i] + tilec::cast<tl::half>(2.0f));
// CU:       int_float[i] = (tilec::cast<float>(it[i]) * 0.5f);
// CU:       half_float[i] = (tilec::cast<float>(ht[i]) + ft[i]);
// CU:       narrow_wide[i] = (tilec::cast<int>(ct[i]) + it[i]);
// CU:       signed_unsigned[i] = (tilec::cast<unsigned>(it[i]) + ut[i]);
// CU:       narrow_scalar[i] = (ct[i] * int8_t(3));
