// tl::inline_asm_elementwise: the op keeps Triton's asm and constraints; the CUDA runs one
// `asm` per element with operands $N as %N and a literal % doubled, `asm volatile` when not
// pure, the arguments broadcast (a scalar reused for every element), and values whose type
// is not their register's (a half in "h", a float in "r") passed as bits.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void asm_kernel(const float *x, const tl::half *h, float *y, tl::half *z,
                             unsigned *u) {
  auto offs = tl::arange<0, B>();
  auto v = tl::load(x + offs);
  auto t = tl::inline_asm_elementwise<float>("fma.rn.f32 $0, $1, $2, $1;", "=f, f, f", v, 2.0f);
  tl::store(y + offs, t);
  auto hn = tl::inline_asm_elementwise<tl::half>("neg.f16 $0, $1;", "=h,h", tl::load(h + offs));
  tl::store(z + offs, hn);
  auto bits = tl::inline_asm_elementwise<unsigned>("mov.b32 $0, $1; // $$", "=r,r", v);
  unsigned sm = tl::inline_asm_elementwise<unsigned, false, 1>("mov.u32 $0, %smid;", "=r");
  // Several lines with a scope of their own, as Triton's examples write them.
  auto swapped = tl::inline_asm_elementwise<unsigned>(R"({
    .reg .b32 lo, hi;
    shr.b32 hi, $1, 16;
    shl.b32 lo, $1, 16;
    or.b32 $0, lo, hi;
  })", "=r,r", bits);
  tl::store(u + offs, swapped + sm);
}

// IR-LABEL: kernel @asm_kernel
// IR:       :t = inline_asm "fma.rn.f32 $0, $1, $2, $1;" constraints(=f,f,f) %{{[0-9]+}}:v, %{{[0-9]+}} : tile<float, B>
// IR:       :hn = inline_asm "neg.f16 $0, $1;" constraints(=h,h) %{{[0-9]+}} : tile<tl::half, B>
// IR:       :bits = inline_asm "mov.b32 $0, $1; // $$" constraints(=r,r) %{{[0-9]+}}:v : tile<unsigned, B>
// IR:       :sm = inline_asm "mov.u32 $0, %smid;" constraints(=r) impure : unsigned

// CU:       float t[L0::ELEMS];
// CU:       for (int i = 0; i < L0::ELEMS; ++i)
// CU-NEXT:    asm("fma.rn.f32 %0, %1, %2, %1;" : "=f"(t[i]) : "f"(v[i]), "f"(2.0f));
// CU:       tl::half hn[L0::ELEMS];
// CU:       for (int i = 0; i < L0::ELEMS; ++i) {
// CU-NEXT:    unsigned short hn_reg;
// CU-NEXT:    asm("neg.f16 %0, %1;" : "=h"(hn_reg) : "h"(tilec::bitcast<unsigned short>({{t[0-9]+}}[i])));
// CU-NEXT:    hn[i] = tilec::bitcast<tl::half>(hn_reg);
// CU-NEXT:  }
// CU:         asm("mov.b32 %0, %1; // $" : "=r"(bits[i]) : "r"(tilec::bitcast<unsigned>(v[i])));
// CU:       unsigned sm;
// CU-NEXT:  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
// CU:       asm("{\n    .reg .b32 lo, hi;\n    shr.b32 hi, %1, 16;\n    shl.b32 lo, %1, 16;\n    or.b32 %0, lo, hi;\n  }" : "=r"(swapped[i]) : "r"(bits[i]));
