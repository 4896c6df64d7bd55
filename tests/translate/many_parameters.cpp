// A kernel may take many arguments (Mamba's state update takes 45). DIV16 is 64 bits: the
// first 61 arguments carry the div16 fact, the equals-1 facts the kernel asks about follow
// theirs (below bit 61), and bits 61-63 stay the maps' and the grid's. `many` takes 39
// arguments: its last pointer's alignment (bit 35) and its stride's "== 1" (bit 39, past 32:
// the first fact the kernel asks about) are known to the kernel. `very_many` takes 64:
// arguments past the 61st never carry the fact (the kernel compiles their accesses for any
// alignment) and the launcher's mask leaves them out.
#include <tilec/tl.h>

#define P(i) const float *p##i,
template <int BLOCK>
TILEC_KERNEL void many(P(0) P(1) P(2) P(3) P(4) P(5) P(6) P(7) P(8) P(9) P(10) P(11) P(12)
                       P(13) P(14) P(15) P(16) P(17) P(18) P(19) P(20) P(21) P(22) P(23)
                       P(24) P(25) P(26) P(27) P(28) P(29) P(30) P(31) P(32) P(33) P(34)
                       float *out, int n, int late_n, int stride) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto a = tl::load(p0 + offs, offs < n);
  auto b = tl::load(p34 + offs * stride, offs < late_n);
  tl::store(out + offs, a + b, offs < late_n);
}

#define P8(i) P(i##0) P(i##1) P(i##2) P(i##3) P(i##4) P(i##5) P(i##6) P(i##7)
template <int BLOCK>
TILEC_KERNEL void very_many(P8(0) P8(1) P8(2) P8(3) P8(4) P8(5) P8(6) P(70) P(71) P(72) P(73)
                            P(74) P(75) float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(p00 + offs, offs < n) + tl::load(p75 + offs, offs < n),
            offs < n);
}

// CU-LABEL: many(
// CU:       constexpr bool p0_aligned = (DIV16 >> 0) & 1u;
// CU:       constexpr bool p34_aligned = (DIV16 >> 34) & 1u;
// CU:       constexpr bool out_aligned = (DIV16 >> 35) & 1u;
// CU:       constexpr bool stride_is_1 = (DIV16 >> 39) & 1u; // stride == 1 in this specialization
// CU-LABEL: very_many(
// CU:       constexpr bool p00_aligned = (DIV16 >> 0) & 1u;
// CU:       constexpr bool p75_aligned = false; // no DIV16 bit past the 61st argument
// CU:       constexpr bool out_aligned = false; // no DIV16 bit past the 61st argument
// H-LABEL:  inline void many(
// H:        tilec::div16_mask(p0, p1, {{.*}}, p34, out, n, late_n, stride)
// H-NEXT:   | tilec::one_fact(stride, 39)
// H-LABEL:  inline void very_many(
// H:        tilec::div16_mask(p00, {{.*}}, p73, p74));
// AOT:      "many<256, 4, 3, 0u>"
// AOT:      "many<256, 4, 3, 68719476735u>"
// AOT:      "many<256, 4, 3, 549755813887u>"
// AOT:      "many<256, 4, 3, 1099511627775u>"
// AOT:      "very_many<256, 4, 3, 0u>"
// AOT:      "very_many<256, 4, 3, 2305843009213693951u>"
