// EXPECT: accepted
#include <tilec/tl.h>
// A dot loop that advances B's pointers in two steps per iteration: the loop's pointers stay
// aligned to their element (each step's facts combine), so every access width is at least one.
template <int BM, int BN, int BK>
TILEC_KERNEL void mm(const tl::half *a, const tl::half *b, float *c, tl::half *last, int K) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rm) * K + tl::expand_dims<0>(rk);
  auto b_ptrs = b + tl::expand_dims<1>(rk) * BN + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < K; k += BK) {
    acc = tl::dot(tl::load(a_ptrs), tl::load(b_ptrs), acc);
    a_ptrs += BK;
    b_ptrs += BK * BN;
    b_ptrs += K;
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
  tl::store(last + tl::expand_dims<1>(rm) * BK + tl::expand_dims<0>(rk), tl::load(a_ptrs));
}
