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
#elif defined(REJECT_AXIS)
  auto r = tl::sum<1>(f4);
#elif defined(REJECT_RESHAPE)
  auto r = tl::reshape<2, 4>(f4);
#elif defined(REJECT_BROADCAST_TO)
  auto r = tl::broadcast_to<4, 8>(f4);
#elif defined(REJECT_PERMUTE)
  auto r = tl::permute<0, 0>(tl::zeros<float, 2, 2>());
#elif defined(REJECT_TRANS_RANK3)
  auto r = tl::trans(tl::zeros<float, 2, 2, 2>());
#elif defined(REJECT_SPLIT)
  auto r = tl::split(f4);
#elif defined(REJECT_JOIN_TYPES)
  auto r = tl::join(f4, i4);
#elif defined(REJECT_XOR_FLOAT)
  auto r = tl::xor_sum(f4);
#elif defined(REJECT_RAND_OFFSETS)
  auto r = tl::rand(1, tl::zeros<int64_t, 4>());
#elif defined(REJECT_RAND_SEED)
  auto r = tl::rand(1.5f, i4);
#elif defined(REJECT_ATOMIC_CONST)
  auto r = tl::atomic_add(cp + i4, 1.0f);
#elif defined(REJECT_ATOMIC_TYPE)
  auto r = tl::atomic_max(static_cast<double *>(nullptr), 1.0);
#elif defined(REJECT_DOT_RANK)
  auto r = tl::dot(f4, f4);
#elif defined(REJECT_DOT_K)
  auto r = tl::dot(tl::zeros<tl::half, 16, 32>(), tl::zeros<tl::half, 16, 16>());
#elif defined(REJECT_DOT_TYPES)
  auto r = tl::dot(tl::zeros<tl::half, 16, 16>(), tl::zeros<tl::bfloat16, 16, 16>());
#elif defined(REJECT_DOT_ELEM)
  auto r = tl::dot(tl::zeros<int32_t, 16, 16>(), tl::zeros<int32_t, 16, 16>());
#elif defined(REJECT_DOT_ACC_TYPE)
  auto r = tl::dot(tl::zeros<int8_t, 16, 16>(), tl::zeros<int8_t, 16, 16>(),
                   tl::zeros<float, 16, 16>());
#elif defined(REJECT_DOT_ACC_SHAPE)
  auto r = tl::dot(tl::zeros<tl::half, 16, 16>(), tl::zeros<tl::half, 16, 32>(),
                   tl::zeros<float, 16, 16>());
#elif defined(REJECT_DOT_OUT_BF16)
  auto r = tl::dot<tl::bfloat16>(tl::zeros<tl::half, 16, 16>(), tl::zeros<tl::half, 16, 16>());
#elif defined(REJECT_DOT_OUT_HALF_FLOAT)
  auto r = tl::dot<tl::half>(tl::zeros<float, 16, 16>(), tl::zeros<float, 16, 16>());
#elif defined(REJECT_DOT_OUT_OTHER)
  auto r = tl::dot<double>(tl::zeros<tl::half, 16, 16>(), tl::zeros<tl::half, 16, 16>());
#elif defined(REJECT_DOT_OUT_ACC)
  auto r = tl::dot<tl::half>(tl::zeros<tl::half, 16, 16>(), tl::zeros<tl::half, 16, 16>(),
                             tl::zeros<float, 16, 16>());
#elif defined(REJECT_INLINE_ASM_PACK)
  auto r = tl::inline_asm_elementwise<float, true, 2>("mov.b32 $0, $1;", "=r,r", f4);
#elif defined(REJECT_INLINE_ASM_POINTER)
  auto r = tl::inline_asm_elementwise<float>("mov.b32 $0, $1;", "=r,r", cp + i4);
#elif defined(REJECT_SWIZZLE2D_TILE)
  auto r = tl::swizzle2d(i4, 0, 4, 4, 2); // program indices are scalars
#elif defined(REJECT_SWIZZLE2D_FLOAT)
  auto r = tl::swizzle2d(0, 0, 4.0f, 4, 2);
#elif defined(REJECT_FLIP_AXIS)
  auto r = tl::flip<1>(f4);
#elif defined(REJECT_GATHER_RANK)
  auto r = tl::gather<0>(f4, tl::zeros<int, 4, 4>());
#elif defined(REJECT_GATHER_INDEX)
  auto r = tl::gather<0>(f4, f4);
#elif defined(REJECT_GATHER_SHAPE)
  auto r = tl::gather<0>(tl::zeros<float, 4, 4>(), tl::zeros<int, 4, 8>());
#elif defined(REJECT_HISTOGRAM_FLOAT)
  auto r = tl::histogram<8>(f4);
#elif defined(REJECT_HISTOGRAM_RANK)
  auto r = tl::histogram<8>(tl::zeros<int, 4, 4>());
#elif defined(REJECT_HISTOGRAM_BINS)
  auto r = tl::histogram<12>(i4);
#elif defined(REJECT_HISTOGRAM_MASK)
  auto r = tl::histogram<8>(i4, i4);
#else
  int r = 0;
#endif
  (void)r;
}
