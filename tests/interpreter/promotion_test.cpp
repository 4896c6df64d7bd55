// Type promotion (tilec/tl/promotion.h): checked at compile time, so a wrong rule fails
// the build of this file; the one runtime test keeps it registered with ctest.
#include <tilec/tl.h>

#include <gtest/gtest.h>

namespace {

using tl::bfloat16;
using tl::half;
using tl::tile;
template <class T> using T4 = tile<T, 4>;

template <class A, class B> using add_t = decltype(std::declval<A>() + std::declval<B>());
template <class A, class B> using div_t = decltype(std::declval<A>() / std::declval<B>());
template <class A, class B> using lt_t = decltype(std::declval<A>() < std::declval<B>());
template <class A, class B> using and_t = decltype(std::declval<A>() & std::declval<B>());
template <class A, class B> using shl_t = decltype(std::declval<A>() << std::declval<B>());

// Tile with tile: the wider / common type.
static_assert(std::is_same_v<add_t<T4<int32_t>, T4<float>>, T4<float>>);
static_assert(std::is_same_v<add_t<T4<half>, T4<float>>, T4<float>>);
static_assert(std::is_same_v<add_t<T4<half>, T4<bfloat16>>, T4<float>>);
static_assert(std::is_same_v<add_t<T4<half>, T4<half>>, T4<half>>);
static_assert(std::is_same_v<add_t<T4<half>, T4<int32_t>>, T4<half>>);
static_assert(std::is_same_v<add_t<T4<bfloat16>, T4<bfloat16>>, T4<bfloat16>>);
static_assert(std::is_same_v<add_t<T4<bfloat16>, T4<int8_t>>, T4<float>>);
static_assert(std::is_same_v<add_t<T4<float>, T4<double>>, T4<double>>);
static_assert(std::is_same_v<add_t<T4<int32_t>, T4<int64_t>>, T4<int64_t>>);
static_assert(std::is_same_v<add_t<T4<int32_t>, T4<uint32_t>>, T4<uint32_t>>);
static_assert(std::is_same_v<add_t<T4<uint32_t>, T4<int64_t>>, T4<int64_t>>);
static_assert(std::is_same_v<add_t<T4<int8_t>, T4<int8_t>>, T4<int8_t>>); // no int promotion
static_assert(std::is_same_v<add_t<T4<uint8_t>, T4<int8_t>>, T4<uint8_t>>);
static_assert(std::is_same_v<add_t<T4<int16_t>, T4<uint8_t>>, T4<int16_t>>);
static_assert(std::is_same_v<add_t<T4<bool>, T4<int8_t>>, T4<int8_t>>);
static_assert(std::is_same_v<add_t<T4<long long>, T4<int32_t>>, T4<int64_t>>);

// A scalar does not widen a tile's element type...
static_assert(std::is_same_v<add_t<T4<half>, float>, T4<half>>);
static_assert(std::is_same_v<add_t<double, T4<float>>, T4<float>>);
static_assert(std::is_same_v<add_t<T4<uint32_t>, int>, T4<uint32_t>>);
static_assert(std::is_same_v<add_t<T4<int8_t>, int>, T4<int8_t>>);
static_assert(std::is_same_v<add_t<T4<bfloat16>, float>, T4<bfloat16>>);
// ...unless it is of a higher kind (bool < integer < floating).
static_assert(std::is_same_v<add_t<T4<int32_t>, float>, T4<float>>);
static_assert(std::is_same_v<add_t<float, T4<int32_t>>, T4<float>>);
static_assert(std::is_same_v<add_t<T4<int32_t>, double>, T4<double>>);
static_assert(std::is_same_v<add_t<T4<int16_t>, half>, T4<half>>);
static_assert(std::is_same_v<add_t<T4<bool>, int>, T4<int32_t>>);
// ...or a 64-bit integer with a narrower integer tile (offsets on an int64 base do not wrap).
static_assert(std::is_same_v<add_t<T4<int32_t>, int64_t>, T4<int64_t>>);
static_assert(std::is_same_v<add_t<int64_t, T4<int32_t>>, T4<int64_t>>);
static_assert(std::is_same_v<add_t<T4<int8_t>, int64_t>, T4<int64_t>>);
static_assert(std::is_same_v<add_t<T4<int32_t>, uint64_t>, T4<uint64_t>>);
static_assert(std::is_same_v<add_t<T4<uint32_t>, int64_t>, T4<int64_t>>);
static_assert(std::is_same_v<add_t<T4<int64_t>, int>, T4<int64_t>>);
static_assert(std::is_same_v<add_t<T4<half>, int64_t>, T4<half>>);
// The runtime's check that kernels over a type parameter assert (tilec::scalar_keeps_tile_type)
// answers as the rules above do.
static_assert(tilec::scalar_keeps_tile_type<half, float>);
static_assert(tilec::scalar_keeps_tile_type<bfloat16, double>);
static_assert(tilec::scalar_keeps_tile_type<int8_t, int>);
static_assert(tilec::scalar_keeps_tile_type<int64_t, int>);
static_assert(!tilec::scalar_keeps_tile_type<int32_t, int64_t>);
static_assert(!tilec::scalar_keeps_tile_type<int32_t, float>);
static_assert(!tilec::scalar_keeps_tile_type<bool, int>);
static_assert(!tilec::scalar_keeps_tile_type<tl::float8_e4m3, float>);

// '/' and '%' on half and bfloat16 compute in float.
static_assert(std::is_same_v<div_t<T4<half>, T4<half>>, T4<float>>);
static_assert(std::is_same_v<div_t<T4<half>, float>, T4<float>>);
static_assert(std::is_same_v<div_t<T4<bfloat16>, int>, T4<float>>);
static_assert(std::is_same_v<div_t<T4<int32_t>, T4<int32_t>>, T4<int32_t>>);
static_assert(std::is_same_v<div_t<T4<int32_t>, float>, T4<float>>);

// Comparisons give bool; bitwise operators and shifts promote like arithmetic.
static_assert(std::is_same_v<lt_t<T4<half>, T4<double>>, T4<bool>>);
static_assert(std::is_same_v<lt_t<T4<int32_t>, int64_t>, T4<bool>>);
static_assert(std::is_same_v<and_t<T4<uint8_t>, T4<int32_t>>, T4<int32_t>>);
static_assert(std::is_same_v<shl_t<T4<int64_t>, T4<int32_t>>, T4<int64_t>>);
static_assert(std::is_same_v<shl_t<T4<uint16_t>, int>, T4<uint16_t>>);
static_assert(std::is_same_v<decltype(!std::declval<T4<float>>()), T4<bool>>);

// Functions that take several operands promote them together.
static_assert(std::is_same_v<decltype(tl::where(T4<bool>{}, T4<half>{}, 1.0f)), T4<half>>);
static_assert(std::is_same_v<decltype(tl::where(T4<bool>{}, T4<int32_t>{}, 0.5f)), T4<float>>);
static_assert(std::is_same_v<decltype(tl::maximum(T4<int8_t>{}, T4<int16_t>{})), T4<int16_t>>);
static_assert(std::is_same_v<decltype(tl::fma(T4<half>{}, 2.0f, T4<float>{})), T4<float>>);
static_assert(std::is_same_v<decltype(tl::maximum(1, int64_t(2))), int64_t>); // scalars
static_assert(std::is_same_v<decltype(tl::clamp(T4<half>{}, 0.0f, 1.0f)), T4<half>>);

// Shapes: scalars and size-1 tiles broadcast.
static_assert(std::is_same_v<add_t<tile<float, 1>, T4<float>>, T4<float>>);
static_assert(std::is_same_v<add_t<T4<float>, tile<int32_t, 1>>, T4<float>>);

// Pointers.
static_assert(
    std::is_same_v<decltype(std::declval<const float *>() + T4<int32_t>{}), T4<const float *>>);
static_assert(std::is_same_v<decltype(T4<half *>{} + int64_t(3)), T4<half *>>);
static_assert(std::is_same_v<decltype(tl::load(T4<const half *>{})), T4<half>>);

} // namespace

TEST(Promotion, RulesHoldAtCompileTime) {
  // The rules above are static_asserts; this checks one of them also computes right.
  auto r = tl::full<int32_t, 4>(3) * 0.5f;
  EXPECT_EQ(tl::detail::at(r, 0), 1.5f);
  auto h = tl::full<half, 4>(1.0f) + 1.5f;
  EXPECT_EQ(float(tl::detail::at(h, 0)), 2.5f);
  auto t = tl::full<int32_t, 4>(1) + ((int64_t(1) << 32) + 5);
  EXPECT_EQ(tl::detail::at(t, 0), (int64_t(1) << 32) + 6); // an int64 tile: nothing wraps
}
