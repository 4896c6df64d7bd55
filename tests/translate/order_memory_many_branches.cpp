// order-memory on a kernel with many branches: each `if` used to double the accesses the pass
// carried (both arms start from what came before), 2^20 of them after twenty branches, which
// took minutes and ran out of memory. The accesses are kept once each; the output is the same.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void branches(const float *x, float *y, int n) {
  auto offs = tl::arange<0, B>();
  auto acc = tl::zeros<float, B>();
  if (n > 0) acc += tl::load(x + offs + 0);
  if (n > 1) acc += tl::load(x + offs + 1);
  if (n > 2) acc += tl::load(x + offs + 2);
  if (n > 3) acc += tl::load(x + offs + 3);
  if (n > 4) acc += tl::load(x + offs + 4);
  if (n > 5) acc += tl::load(x + offs + 5);
  if (n > 6) acc += tl::load(x + offs + 6);
  if (n > 7) acc += tl::load(x + offs + 7);
  if (n > 8) acc += tl::load(x + offs + 8);
  if (n > 9) acc += tl::load(x + offs + 9);
  if (n > 10) acc += tl::load(x + offs + 10);
  if (n > 11) acc += tl::load(x + offs + 11);
  if (n > 12) acc += tl::load(x + offs + 12);
  if (n > 13) acc += tl::load(x + offs + 13);
  if (n > 14) acc += tl::load(x + offs + 14);
  if (n > 15) acc += tl::load(x + offs + 15);
  if (n > 16) acc += tl::load(x + offs + 16);
  if (n > 17) acc += tl::load(x + offs + 17);
  if (n > 18) acc += tl::load(x + offs + 18);
  if (n > 19) acc += tl::load(x + offs + 19);
  if (n > 20) acc += tl::load(x + offs + 20);
  if (n > 21) acc += tl::load(x + offs + 21);
  if (n > 22) acc += tl::load(x + offs + 22);
  if (n > 23) acc += tl::load(x + offs + 23);
  if (n > 24) acc += tl::load(x + offs + 24);
  if (n > 25) acc += tl::load(x + offs + 25);
  if (n > 26) acc += tl::load(x + offs + 26);
  if (n > 27) acc += tl::load(x + offs + 27);
  if (n > 28) acc += tl::load(x + offs + 28);
  if (n > 29) acc += tl::load(x + offs + 29);
  tl::store(y + offs, acc);
  // the store after all the loads of another argument: no barrier
}
// IR-LABEL: kernel @branches<int B>
// IR-NOT:   barrier
// IR:       store
