// EXPECT: error virtual_class.cpp:[0-9]+:
#include <tilec/tl.h>
struct Op { virtual float apply(float v) const { return v; } };
template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  Op op;
  tl::store(out + tl::program_id(0), op.apply(1.0f));
}
