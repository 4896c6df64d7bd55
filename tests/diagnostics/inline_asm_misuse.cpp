// tl::inline_asm_elementwise misused: located errors that say what to write instead.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void k(const float *x, const tl::half *h, float *y) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  auto hv = tl::load(h + offs);
  tl::store(y + offs, tl::inline_asm_elementwise<float>("add.f32 $0, $1, $2;", "=f,f", v, v));
  // CHECK: inline_asm_misuse.cpp:[[@LINE-1]]:80: error: the constraints "=f,f" give 1 argument register, but tl::inline_asm_elementwise has 2 arguments: one register per argument, after the result's
  tl::store(y + offs, tl::inline_asm_elementwise<float>("mov.f32 $0, $2;", "=f,f", v));
  // CHECK: inline_asm_misuse.cpp:[[@LINE-1]]:57: error: the asm names $2, but there are only 2 operands ($0 the result, $1 the argument)
  tl::store(y + offs, tl::inline_asm_elementwise<float>("mov.f32 $0, $1;", "f,=f", v));
  // CHECK: inline_asm_misuse.cpp:[[@LINE-1]]:76: error: the constraints must start with the result's register ("=r", "=f", ...): tl::inline_asm_elementwise returns one value
  tl::store(y + offs, tl::inline_asm_elementwise<float>("mov.f32 $0, $1;", "=f,x", v));
  // CHECK: inline_asm_misuse.cpp:[[@LINE-1]]:76: error: constraint 'x' names no register: use h (16 bits), r (32 bits), l (64 bits), f (float) or d (double)
  tl::store(y + offs, tl::inline_asm_elementwise<float>("cvt.f32.f16 $0, $1;", "=f,r", hv));
  // CHECK: inline_asm_misuse.cpp:[[@LINE-1]]:88: error: tl::half (16 bits) does not fit its constraint 'r', a 32-bit register: use a constraint of its size (h 16, r or f 32, l or d 64 bits) or cast it (tl::cast)
  tl::store(y + offs, tl::inline_asm_elementwise<float, true, 2>("mov.f32 $0, $1;", "=f,f", v));
  // CHECK: inline_asm_misuse.cpp:[[@LINE-1]]:63: error: tl::inline_asm_elementwise runs its asm on one element at a time (pack = 1); write the asm for one element, or pack elements yourself (tl::join, tl::bitcast)
  tl::store(y + offs, tl::inline_asm_elementwise<double>("mov.f64 $0, $1;", "=f,f", v));
  // CHECK: inline_asm_misuse.cpp:[[@LINE-1]]:77: error: the result type double (64 bits) does not fit its constraint '=f', a 32-bit register: use a constraint of its size (h 16, r or f 32, l or d 64 bits)
  tl::store(y + offs, tl::inline_asm_elementwise<float>("mov.f32 %0, %1;", "=f,f", v));
  // CHECK: inline_asm_misuse.cpp:[[@LINE-1]]:57: error: the asm names operands as Triton does, $0 (the result), $1, ...; '%0' would be a PTX name
}
// CHECK: 8 errors generated.
