// elementwise.cuh: conversions and the math of tl:: on one element. Half and bfloat16
// compute in float and round back, as the host interpreter does; fp8 values only convert
// (the translator casts them to float before any arithmetic).
#pragma once

#include <tilec/device/common/types.cuh>

namespace tilec {

template <class T>
inline constexpr bool is_16bit_float_v = is_same_v<T, __half> || is_same_v<T, __nv_bfloat16>;

template <class T> __device__ inline float to_float(T x) {
  if constexpr (is_same_v<T, __half>)
    return __half2float(x);
  else if constexpr (is_same_v<T, __nv_bfloat16>)
  {
    // Exact: a bfloat16 is the high half of the float. A move of (0, x) into a 32-bit register
    // (not CUDA's cvt) lets ptxas fold it with the shift that took the element out of its
    // loaded word; in inline PTX, so that the compiler above keeps it where the kernel
    // converts (a cast the translator moved next to its reader stays there).
    float f;
    asm("mov.b32 %0, {%1, %2};" : "=f"(f) : "h"(uint16_t(0)), "h"(__bfloat16_as_ushort(x)));
    return f;
  }
  else
    return static_cast<float>(x);
}

/// Infinity and a quiet NaN of a floating type (what INFINITY / NAN become in kernels).
template <class T> __device__ inline T infinity() {
  if constexpr (is_same_v<T, double>)
    return __longlong_as_double(0x7ff0000000000000ll);
  else
    return __int_as_float(0x7f800000);
}
template <class T> __device__ inline T quiet_nan() {
  if constexpr (is_same_v<T, double>)
    return __longlong_as_double(0x7ff8000000000000ll);
  else
    return __int_as_float(0x7fc00000);
}

/// tl::cast: value conversion (C++ semantics; 8- and 16-bit floats go through float, rounding
/// to nearest even; to fp8 with CUDA's default saturation to the largest finite value).
template <class To, class From> __device__ inline To cast(From x) {
  if constexpr (is_same_v<To, From>)
    return x;
  else if constexpr (is_fp8_v<To>)
    return To(to_float(x));
  else if constexpr (is_same_v<To, __half>)
    return __float2half_rn(to_float(x));
  else if constexpr (is_same_v<To, __nv_bfloat16>)
    return __float2bfloat16_rn(to_float(x));
  else if constexpr (is_16bit_float_v<From> || is_fp8_v<From>)
    return static_cast<To>(to_float(x));
  else
    return static_cast<To>(x);
}

/// tl::bitcast: reinterpret the bits of a same-sized value.
template <class To, class From> __device__ inline To bitcast(From x) {
  static_assert(sizeof(To) == sizeof(From), "tl::bitcast needs types of the same size");
  To out;
  memcpy(&out, &x, sizeof(To)); // a device builtin under NVRTC and nvcc alike
  return out;
}

// 32-bit exp, exp2, sqrt and rsqrt as Triton lowers tl.exp, tl.exp2, tl.sqrt and tl.rsqrt:
// the special-function unit's approximations (within 2 ulp; exp2, sqrt and rsqrt flush
// subnormals to zero), one instruction each where CUDA's precise functions take 4 to 10 (exp2f
// rescales subnormal results, expf reduces the range in extra precision, sqrtf rounds
// correctly). tl::sqrt_rn keeps the correctly rounded square root.
#define TILEC_PTX_F32(NAME, INSTRUCTION)                                                          \
  __device__ inline float NAME(float x) {                                                          \
    float y;                                                                                       \
    asm(INSTRUCTION " %0, %1;" : "=f"(y) : "f"(x));                                                \
    return y;                                                                                      \
  }
TILEC_PTX_F32(approx_exp2, "ex2.approx.ftz.f32")
TILEC_PTX_F32(approx_exp2_subnormal, "ex2.approx.f32") // keeps subnormal results
TILEC_PTX_F32(approx_sqrt, "sqrt.approx.ftz.f32")
TILEC_PTX_F32(approx_rsqrt, "rsqrt.approx.ftz.f32")
#undef TILEC_PTX_F32
/// exp(x) = 2^(x log2(e)); the result may be subnormal, as Triton's.
__device__ inline float approx_exp(float x) { return approx_exp2_subnormal(x * 1.44269504088896341f); }

// One-operand float math: float and double call the functions named; 16-bit floats via float.
#define TILEC_FLOAT_MATH(NAME, F32, F64)                                                           \
  __device__ inline float NAME(float x) { return F32(x); }                                         \
  __device__ inline double NAME(double x) { return F64(x); }                                       \
  __device__ inline __half NAME(__half x) { return __float2half_rn(F32(__half2float(x))); }        \
  __device__ inline __nv_bfloat16 NAME(__nv_bfloat16 x) {                                          \
    return __float2bfloat16_rn(F32(__bfloat162float(x)));                                          \
  }
TILEC_FLOAT_MATH(exp, approx_exp, ::exp)
TILEC_FLOAT_MATH(exp2, approx_exp2, ::exp2)
TILEC_FLOAT_MATH(log, logf, ::log)
TILEC_FLOAT_MATH(log2, log2f, ::log2)
TILEC_FLOAT_MATH(sqrt, approx_sqrt, ::sqrt)
TILEC_FLOAT_MATH(sqrt_rn, sqrtf, ::sqrt) // sqrtf rounds correctly (no fast math)
TILEC_FLOAT_MATH(rsqrt, approx_rsqrt, ::rsqrt)
TILEC_FLOAT_MATH(sin, sinf, ::sin)
TILEC_FLOAT_MATH(cos, cosf, ::cos)
TILEC_FLOAT_MATH(tanh, tanhf, ::tanh)
TILEC_FLOAT_MATH(erf, erff, ::erf)
TILEC_FLOAT_MATH(floor, floorf, ::floor)
TILEC_FLOAT_MATH(ceil, ceilf, ::ceil)
TILEC_FLOAT_MATH(tan, tanf, ::tan)
TILEC_FLOAT_MATH(asin, asinf, ::asin)
TILEC_FLOAT_MATH(acos, acosf, ::acos)
TILEC_FLOAT_MATH(atan, atanf, ::atan)
TILEC_FLOAT_MATH(sinh, sinhf, ::sinh)
TILEC_FLOAT_MATH(cosh, coshf, ::cosh)
TILEC_FLOAT_MATH(asinh, asinhf, ::asinh)
TILEC_FLOAT_MATH(acosh, acoshf, ::acosh)
TILEC_FLOAT_MATH(atanh, atanhf, ::atanh)
TILEC_FLOAT_MATH(log10, log10f, ::log10)
TILEC_FLOAT_MATH(log1p, log1pf, ::log1p)
TILEC_FLOAT_MATH(expm1, expm1f, ::expm1)
TILEC_FLOAT_MATH(erfc, erfcf, ::erfc)
TILEC_FLOAT_MATH(trunc, truncf, ::trunc)
TILEC_FLOAT_MATH(rint, rintf, ::rint)
#undef TILEC_FLOAT_MATH

// Two-operand float math (libdevice's pow, atan2, hypot): float and double call the functions
// named; 16-bit floats through float.
#define TILEC_FLOAT_MATH2(NAME, F32, F64)                                                          \
  __device__ inline float NAME(float a, float b) { return F32(a, b); }                             \
  __device__ inline double NAME(double a, double b) { return F64(a, b); }                          \
  __device__ inline __half NAME(__half a, __half b) {                                              \
    return __float2half_rn(F32(__half2float(a), __half2float(b)));                                 \
  }                                                                                                \
  __device__ inline __nv_bfloat16 NAME(__nv_bfloat16 a, __nv_bfloat16 b) {                          \
    return __float2bfloat16_rn(F32(__bfloat162float(a), __bfloat162float(b)));                     \
  }
TILEC_FLOAT_MATH2(pow, powf, ::pow)
TILEC_FLOAT_MATH2(atan2, atan2f, ::atan2)
TILEC_FLOAT_MATH2(hypot, hypotf, ::hypot)
#undef TILEC_FLOAT_MATH2

/// `%` where the element type is a template parameter: C++'s for integers, fmod for floats as
/// the interpreter computes it (16-bit floats through float), one spelling for every T.
template <class T> __device__ inline T mod(T a, T b) {
  if constexpr (type_rank<T>::kind < 2)
    return a % b;
  else
    return cast<T>(fmodf(cast<float>(a), cast<float>(b)));
}
__device__ inline double mod(double a, double b) { return ::fmod(a, b); }

/// A tile's `/` of floats and tl::fdiv: Triton's approximate division, div.full.f32 (within 2
/// ulp over the whole range), a reciprocal and a multiply where IEEE division takes a Newton
/// iteration and a slow-path branch. Doubles and integers (a template T) divide exactly.
template <class T> __device__ inline T fdiv(T a, T b) { return a / b; }
__device__ inline float fdiv(float a, float b) {
  float q;
  asm("div.full.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
  return q;
}

template <class T> __device__ inline T sigmoid(T x) {
  float f = to_float(x);
  return cast<T>(fdiv(1.0f, 1.0f + approx_exp(-f))); // as Triton's: approximate exp and division
}
__device__ inline double sigmoid(double x) { return 1.0 / (1.0 + ::exp(-x)); }

template <class T> __device__ inline T abs(T x) {
  if constexpr (is_16bit_float_v<T>)
    return cast<T>(fabsf(to_float(x)));
  else
    return x < T(0) ? T(-x) : x;
}

/// tl::maximum / tl::minimum: like fmax/fmin for floats (a NaN operand yields the other).
template <class T> __device__ inline T maximum(T a, T b) {
  if constexpr (is_16bit_float_v<T>)
    return cast<T>(fmaxf(to_float(a), to_float(b)));
  else if constexpr (is_same_v<T, float>)
    return fmaxf(a, b);
  else if constexpr (is_same_v<T, double>)
    return fmax(a, b);
  else
    return a > b ? a : b;
}
template <class T> __device__ inline T minimum(T a, T b) {
  if constexpr (is_16bit_float_v<T>)
    return cast<T>(fminf(to_float(a), to_float(b)));
  else if constexpr (is_same_v<T, float>)
    return fminf(a, b);
  else if constexpr (is_same_v<T, double>)
    return fmin(a, b);
  else
    return a < b ? a : b;
}
template <class T> __device__ inline T clamp(T x, T lo, T hi) {
  return minimum(maximum(x, lo), hi);
}

template <class T> __device__ inline T fma(T a, T b, T c) {
  if constexpr (is_16bit_float_v<T>)
    return cast<T>(fmaf(to_float(a), to_float(b), to_float(c)));
  else if constexpr (is_same_v<T, float>)
    return fmaf(a, b, c);
  else if constexpr (is_same_v<T, double>)
    return ::fma(a, b, c);
  else
    return a * b + c;
}

/// Ceiling division of integers.
template <class T> __device__ inline T cdiv(T a, T b) { return (a + b - 1) / b; }

/// The high half of the full product of two unsigned integers (as Triton's umulhi).
template <class T> __device__ inline T umulhi(T a, T b) {
  if constexpr (sizeof(T) == 8)
    return T(__umul64hi((unsigned long long)a, (unsigned long long)b));
  else
    return T(__umulhi((unsigned)a, (unsigned)b));
}

} // namespace tilec
