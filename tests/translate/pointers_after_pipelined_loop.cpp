// Pointers a tl::dot loop advances, read again after the loop: the loop is not pipelined
// (the producer would end iterations ahead, and its variables are dropped from the loop), so
// the load after it reads where the last iteration left them. Before, lower-pipeline left that
// load reading a value with no layout (an internal error).
#include <tilec/tl.h>

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
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
  tl::store(last + tl::expand_dims<1>(rm) * BK + tl::expand_dims<0>(rk), tl::load(a_ptrs));
}

// IR-LABEL: kernel @mm<int BM, int BN, int BK>
// IR-NOT:   pipelined
// IR:       = for "<"
// IR:       = load %{{[0-9]+}}:a_ptrs : tile<tl::half, BM, BK>
