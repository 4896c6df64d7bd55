// Programs the vocabulary must reject at compile time; CMakeLists.txt compiles this file
// once per REJECT_* case and expects the diagnostic named there. Without a case it compiles.
#include <tilec/tl.h>

void reject() {
  auto f4 = tl::zeros<float, 4>();
  auto i4 = tl::zeros<int32_t, 4>();
  auto u4 = tl::zeros<uint32_t, 4>();
  const float *cp = nullptr;
  (void)f4, (void)i4, (void)u4, (void)cp;
#if defined(REJECT_SHAPES)
  auto r = f4 + tl::zeros<float, 8>();
#elif defined(REJECT_DIV_SIGNEDNESS)
  auto r = i4 / u4;
#elif defined(REJECT_STORE_CONST)
  tl::store(cp + i4, f4);
#elif defined(REJECT_ARANGE)
  auto r = tl::arange<0, 3>();
#elif defined(REJECT_FLOAT_BITWISE)
  auto r = f4 & f4;
#elif defined(REJECT_MATH_ON_INT)
  auto r = tl::exp(i4);
#elif defined(REJECT_BITCAST_SIZE)
  auto r = tl::bitcast<int64_t>(f4);
#elif defined(REJECT_TILE_DIMS)
  tl::tile<float, 6> r;
#else
  int r = 0;
#endif
  (void)r;
}
