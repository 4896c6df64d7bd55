// TILEC_FUNC helpers may nest 17 calls deep (docs/kernels.md); the 18th is an error.
#include <tilec/tl.h>

TILEC_FUNC auto h17(auto x) { return x + 17; }
TILEC_FUNC auto h16(auto x) { return h17(x) + 16; }
TILEC_FUNC auto h15(auto x) { return h16(x) + 15; }
TILEC_FUNC auto h14(auto x) { return h15(x) + 14; }
TILEC_FUNC auto h13(auto x) { return h14(x) + 13; }
TILEC_FUNC auto h12(auto x) { return h13(x) + 12; }
TILEC_FUNC auto h11(auto x) { return h12(x) + 11; }
TILEC_FUNC auto h10(auto x) { return h11(x) + 10; }
TILEC_FUNC auto h9(auto x) { return h10(x) + 9; }
TILEC_FUNC auto h8(auto x) { return h9(x) + 8; }
TILEC_FUNC auto h7(auto x) { return h8(x) + 7; }
TILEC_FUNC auto h6(auto x) { return h7(x) + 6; }
TILEC_FUNC auto h5(auto x) { return h6(x) + 5; }
TILEC_FUNC auto h4(auto x) { return h5(x) + 4; }
TILEC_FUNC auto h3(auto x) { return h4(x) + 3; }
TILEC_FUNC auto h2(auto x) { return h3(x) + 2; }
TILEC_FUNC auto h1(auto x) { return h2(x) + 1; }
TILEC_FUNC auto h0(auto x) { return h1(x) + 0; }

template <int BLOCK>
TILEC_KERNEL void deep(int *out) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, h0(offs));
}

template <int BLOCK>
TILEC_KERNEL void within_limit(int *out) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, h1(offs));
}
// CHECK: helper_nesting_limit.cpp:5:38: error: TILEC_FUNC helpers nest more than 17 calls deep; merge some of them
// CHECK-NOT: error
// CHECK: 1 error generated.
