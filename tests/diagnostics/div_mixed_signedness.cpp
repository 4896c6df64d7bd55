// `/` and `%` on integers of different signedness do not compile in the interpreter
// (promotion.h); with dependent operands clang does not instantiate them, so tilec says so.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void k(const int* x, const unsigned* y, int* out, unsigned* out_u) {
  auto offs = tl::arange<0, BLOCK>();
  auto a = tl::load(x + offs);
  auto b = tl::load(y + offs);
  tl::store(out + offs, a / b);
  // CHECK: div_mixed_signedness.cpp:[[@LINE-1]]:25: error: '/' and '%' need integers of the same signedness (cast one first)
  tl::store(out_u + offs, b % a);
  // CHECK: div_mixed_signedness.cpp:[[@LINE-1]]:27: error: '/' and '%' need integers of the same signedness (cast one first)
  // A bool tile with a signed scalar promotes both (bool is an unsigned 1-bit integer).
  tl::store(out + offs, (a > 0) / 2);
  // CHECK: div_mixed_signedness.cpp:[[@LINE-1]]:25: error: '/' and '%' need integers of the same signedness (cast one first)
  // A scalar of the tile's kind takes the tile's type: no error.
  tl::store(out + offs, a / 2u + a % tl::cast<int>(b) + (a > 0) / 2u);
}
// CHECK: 3 errors generated.
