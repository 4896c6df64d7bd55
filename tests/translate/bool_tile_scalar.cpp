// A bool tile with an integer scalar takes the scalar's type, as in the interpreter (Triton's
// int1 widens to the other operand): + 1 is int32, + 1u uint32, + int64_t(1) int64; with a
// bool scalar it stays bool.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void widen(const int* x, int* a, unsigned* b, int64_t* c, bool* d, bool s) {
  auto offs = tl::arange<0, BLOCK>();
  auto positive = tl::load(x + offs) > 0;
  tl::store(a + offs, positive + 1);
  tl::store(b + offs, positive + 1u);
  tl::store(c + offs, positive + int64_t(1));
  tl::store(d + offs, positive & s);
}

// IR-LABEL: kernel @widen<int BLOCK>
// IR:       = binary "+" %{{[0-9]+}}, %{{[0-9]+}} : tile<int, BLOCK>
// IR:       = binary "+" %{{[0-9]+}}, %{{[0-9]+}} : tile<unsigned, BLOCK>
// IR:       = binary "+" %{{[0-9]+}}, %{{[0-9]+}} : tile<int64_t, BLOCK>
// IR:       = binary "&" %{{[0-9]+}}:positive, %{{[0-9]+}}:s : tile<bool, BLOCK>
