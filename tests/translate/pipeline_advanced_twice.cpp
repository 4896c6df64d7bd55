// A pointer tile advanced twice per iteration of a pipelined dot loop (robustness corpus: a
// duplicated `b_ptrs += ...` line). lower-pipeline carries it as a pointer tile (not as a
// distance from the first pointers) through the prologue and the copies' branch; those carried
// values keep the tile's layout (they once had none: an internal error).
#include <tilec/tl.h>

template <int BM, int BN, int BK>
TILEC_KERNEL void mm(const tl::half *a, const tl::half *b, float *c, int M, int N, int K) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rm % M) * K + tl::expand_dims<0>(rk);
  auto b_ptrs = b + tl::expand_dims<1>(rk) * N + tl::expand_dims<0>(rn % N);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    auto at = tl::load(a_ptrs, tl::expand_dims<0>(rk) < K - k * BK, 0.0f);
    auto bt = tl::load(b_ptrs, tl::expand_dims<1>(rk) < K - k * BK, 0.0f);
    acc = tl::dot(at, bt, acc);
    a_ptrs += BK;
    b_ptrs += BK * N;
    b_ptrs += BK * N;
  }
  tl::store(c + tl::expand_dims<1>(rm) * N + tl::expand_dims<0>(rn), acc);
}

// The prologue's and the loop's carried b_ptrs are tiles in their layout (#2).
// IR-LABEL: kernel @mm<int BM, int BN, int BK>
// IR:       %{{[0-9]+}}:k_ahead, %{{[0-9]+}}:b_ptrs #2 {{.*}} = for "<"
// IR-NEXT:  {
// IR-NEXT:    ^(%{{[0-9]+}}:stage : int, %{{[0-9]+}}:k_ahead : int, %{{[0-9]+}}:b_ptrs : tile<const tl::half*, BK, BN> #2
// IR:         %{{[0-9]+}}:b_ptrs #2 {{.*}} = if
// IR:       %{{[0-9]+}}:acc #0, %{{[0-9]+}}:b_ptrs #2, %{{[0-9]+}}:k_ahead, %{{[0-9]+}}:read_stage = for "<"

// The copies read the carried pointers, then advance them by both steps.
// CU-LABEL: mm(
// CU:       tilec::copy_tile_async<[[LB:L[0-9]+]], {{.*}}>(bt_next, b_ptrs, {{.*}});
// CU:       t{{[0-9]+}}[i] = ((b_ptrs[i] + (BK * N)) + (BK * N));
