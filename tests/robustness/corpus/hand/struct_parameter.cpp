// EXPECT: error struct_parameter.cpp:5:
#include <tilec/tl.h>
struct Shape { int m, n; };
template <int BLOCK>
TILEC_KERNEL void k(float *out, Shape s) {
  tl::store(out + tl::program_id(0), float(s.m));
}
