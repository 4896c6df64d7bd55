// `~` on a bool tile is logical not, as in the interpreter (int1: `~` flips the one bit);
// C++'s `~` on a bool promotes it to int and would give true for both values. A bool scalar
// keeps C++'s meaning in both: `~s` is the int -1 or -2.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void flip(const int* x, bool* out, int* out_int, bool s) {
  auto offs = tl::arange<0, BLOCK>();
  auto positive = tl::load(x + offs) > 0;
  auto flipped = ~positive;
  int inverted = ~s;
  tl::store(out + offs, flipped);
  tl::store(out_int + offs, tl::where(flipped, inverted, 0));
}

// Non-dependent operands reach the translator as the interpreter's operator~.
TILEC_KERNEL void flip_fixed(const int* x, bool* out) {
  auto offs = tl::arange<0, 128>();
  tl::store(out + offs, ~(tl::load(x + offs) > 0));
}

// IR-LABEL: kernel @flip<int BLOCK>
// IR:       :positive = binary ">" {{.*}} : tile<bool, BLOCK>
// IR-NEXT:  :flipped = unary "!" %{{[0-9]+}}:positive : tile<bool, BLOCK>
// IR:       = cast %3:s : int
// IR-NEXT:  :inverted = unary "~" %{{[0-9]+}} : int
// IR-LABEL: kernel @flip_fixed<>
// IR:       = unary "!" %{{[0-9]+}} : tile<bool, 128>

// CU-LABEL: flip(const int* x, bool* out, int* out_int, bool s) {
// CU:       const int inverted = (~tilec::cast<int>(s));
// CU:       flipped[i] = (!positive[i]);
// CU-LABEL: flip_fixed(const int* x, bool* out) {
// CU:       = (!(t{{[0-9]+}}[i] > 0));
