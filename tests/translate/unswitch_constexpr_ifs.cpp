// A tl::dot loop with an `if constexpr` whose branch loads a second operand (Triton's
// `if HAS_B2:` on a constexpr inside the loop; vLLM's MLA decode reads its rotary keys so):
// unswitch-constexpr-ifs makes one copy of the loop per branch, so that the pipeliner finds
// the branch's load at the loop's top level and copies it to shared memory stages ahead,
// instead of waiting for it in every iteration. The other copy has no such load.
#include <tilec/tl.h>

template <int BM, int BN, int BK, bool HAS_B2>
TILEC_KERNEL void two_products(const tl::half *a, const tl::half *b, const tl::half *b2, float *c,
                               int K) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto x = tl::load(a + tl::expand_dims<1>(rm) * K + tl::expand_dims<0>(k0 + rk));
    auto y = tl::load(b + tl::expand_dims<1>(k0 + rk) * BN + tl::expand_dims<0>(rn));
    acc = tl::dot(x, y, acc);
    if constexpr (HAS_B2) {
      auto y2 = tl::load(b2 + tl::expand_dims<1>(k0 + rk) * BN + tl::expand_dims<0>(rn));
      acc = tl::dot(x, y2, acc);
    }
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}

// The loop's copy for HAS_B2 stages x, y and y2; the copy for !HAS_B2 stages x and y only.
// CU-LABEL: two_products(
// CU:       // unswitch_constexpr_ifs.cpp:19: HAS_B2: a copy of the loop per branch of its if constexpr, whose loads can then be pipelined
// CU:       if constexpr (HAS_B2) {
// CU-NOT:   } else {
// CU:         tl::half* const y2_stages =
// CU:         tilec::copy_tile_async<{{.*}}>(y2_next, {{.*}});
// CU:       } else {
// CU-NOT:   y2
// CU:         tilec::copy_tile_async<{{.*}}>(y_next_{{[0-9]+}}, {{.*}});
// CU-NOT:   y2
// CU:       tilec::store_vec

// A condition on a constexpr local the loop declares is not unswitched: above the loop the
// local is not declared (NVRTC: identifier "HAS" is undefined, which --check catches).
template <int BM, int BN, int BK, int EXTRA>
TILEC_KERNEL void local_flag(const tl::half *a, const tl::half *b, float *c, int K) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    constexpr bool HAS = EXTRA > 0;
    auto x = tl::load(a + tl::expand_dims<1>(rm) * K + tl::expand_dims<0>(k0 + rk));
    auto y = tl::load(b + tl::expand_dims<1>(k0 + rk) * BN + tl::expand_dims<0>(rn));
    acc = tl::dot(x, y, acc);
    if constexpr (HAS) {
      auto y2 = tl::load(b + BK * BN + tl::expand_dims<1>(k0 + rk) * BN + tl::expand_dims<0>(rn));
      acc = tl::dot(x, y2, acc);
    }
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}

// CU-LABEL: local_flag(
// CU-NOT:   a copy of the loop per branch
// CU:       if constexpr (HAS) {
// CU-NOT:   a copy of the loop per branch
// CU-LABEL: three_flags(

// Three such branches in one loop: two are unswitched (four copies of the loop), the third
// stays a branch in each copy, so that the copies stay few whatever the kernel holds.
template <int BM, int BN, int BK, bool B1, bool B2, bool B3>
TILEC_KERNEL void three_flags(const tl::half *a, const tl::half *b, float *c, int K) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto acc = tl::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    auto x = tl::load(a + tl::expand_dims<1>(rm) * K + tl::expand_dims<0>(k0 + rk));
    auto y = tl::load(b + tl::expand_dims<1>(k0 + rk) * BN + tl::expand_dims<0>(rn));
    acc = tl::dot(x, y, acc);
    if constexpr (B1) {
      auto y1 = tl::load(b + BK * BN + tl::expand_dims<1>(k0 + rk) * BN + tl::expand_dims<0>(rn));
      acc = tl::dot(x, y1, acc);
    }
    if constexpr (B2) {
      auto y2 = tl::load(b + 2 * BK * BN + tl::expand_dims<1>(k0 + rk) * BN + tl::expand_dims<0>(rn));
      acc = tl::dot(x, y2, acc);
    }
    if constexpr (B3) {
      auto y3 = tl::load(b + 3 * BK * BN + tl::expand_dims<1>(k0 + rk) * BN + tl::expand_dims<0>(rn));
      acc = tl::dot(x, y3, acc);
    }
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}

// CU:       // unswitch_constexpr_ifs.cpp:{{[0-9]+}}: B1: a copy of the loop per branch
// CU:       if constexpr (B1) {
// CU-COUNT-2: : B2: a copy of the loop per branch
// CU-NOT:   B3: a copy of the loop per branch
// CU:       if constexpr (B3) {
