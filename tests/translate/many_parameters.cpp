// A kernel may take more arguments than DIV16 has bits (Mamba's state update takes 45): the
// first 29 carry the div16 fact and equals-1 facts follow theirs; later ones never carry the
// fact (the kernel compiles their accesses for any alignment) and the launcher's mask leaves
// them out, so the grid bits (30, 31) stay the grid's.
#include <tilec/tl.h>

#define P(i) const float *p##i,
template <int BLOCK>
TILEC_KERNEL void many(P(0) P(1) P(2) P(3) P(4) P(5) P(6) P(7) P(8) P(9) P(10) P(11) P(12)
                       P(13) P(14) P(15) P(16) P(17) P(18) P(19) P(20) P(21) P(22) P(23)
                       P(24) P(25) P(26) P(27) P(28) P(29) P(30) P(31) P(32) P(33) P(34)
                       float *out, int n, int late_n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto a = tl::load(p0 + offs, offs < n);
  auto b = tl::load(p34 + offs, offs < late_n);
  tl::store(out + offs, a + b, offs < late_n);
}

// CU-LABEL: many(
// CU:       constexpr bool p0_aligned = (DIV16 >> 0) & 1u;
// CU:       constexpr bool p34_aligned = false; // no DIV16 bit past the 29th argument
// CU:       constexpr bool out_aligned = false; // no DIV16 bit past the 29th argument
// H-LABEL:  inline void many(
// H:        tilec::div16_mask(p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28)
// AOT:      many<256, 4, 3, 0u>
// AOT:      many<256, 4, 3, 536870911u>
