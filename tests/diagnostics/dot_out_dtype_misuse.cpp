// tl::dot<Out> (Triton's out_dtype) with a result type Triton refuses or ignores: located
// errors that say what to write instead.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void k(const tl::half *h, const float *f, tl::half *out) {
  auto offs = tl::expand_dims<1>(tl::arange<0, B>()) * B + tl::expand_dims<0>(tl::arange<0, B>());
  auto a = tl::load(h + offs);
  auto x = tl::load(f + offs);
  tl::store(out + offs, tl::dot<tl::bfloat16>(a, a));
  // CHECK: dot_out_dtype_misuse.cpp:[[@LINE-1]]:25: error: tl::dot<tl::bfloat16>: Triton has no bfloat16 out_dtype; write tl::cast<tl::bfloat16>(tl::dot(a, b))
  tl::store(out + offs, tl::dot<tl::half>(x, x));
  // CHECK: dot_out_dtype_misuse.cpp:[[@LINE-1]]:25: error: tl::dot<tl::half> needs half or fp8 operands, not float (Triton computes float and bfloat16 products in float whatever out_dtype says); write tl::cast<tl::half>(tl::dot(a, b))
  tl::store(out + offs, tl::dot<int>(a, a));
  // CHECK: dot_out_dtype_misuse.cpp:[[@LINE-1]]:25: error: tl::dot<int>: the result type (Triton's out_dtype) of a product of tl::half tiles is float or tl::half; cast the result for another type
  tl::store(out + offs, tl::dot<tl::half>(a, a, x));
  // CHECK: dot_out_dtype_misuse.cpp:[[@LINE-1]]:49: error: the accumulator of tl::dot<tl::half> on tl::half must hold tl::half, not float
}
// CHECK: 4 errors generated.
