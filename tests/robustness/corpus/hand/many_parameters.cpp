// EXPECT: accepted
#include <tilec/tl.h>
#define P(i) float *p##i,
template <int BLOCK>
TILEC_KERNEL void many(P(0) P(1) P(2) P(3) P(4) P(5) P(6) P(7) P(8) P(9) P(10) P(11) P(12)
                       P(13) P(14) P(15) P(16) P(17) P(18) P(19) P(20) P(21) P(22) P(23)
                       P(24) P(25) P(26) P(27) P(28) P(29) P(30) P(31) int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(p0 + offs, tl::load(p31 + offs, offs < n), offs < n);
}
