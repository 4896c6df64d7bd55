// Independent tl::dots run back to back (overlap-dots, sm_90a): the first is issued without
// waiting, the second moved up right after it with the stage view and zero accumulator it
// reads, and dot_wait completes the first before the exp2 reads it. An attention backward's
// dQ loop: S = Q K^T and dP = dO V^T do not depend on each other.
#include <tilec/tl.h>

template <int BM, int BN, int D>
TILEC_KERNEL void dq_like(const tl::half *q, const tl::half *k, const tl::half *v,
                          const tl::half *dO, float *dq, int n) {
  auto offs_m = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto offs_d = tl::arange<0, D>();
  auto rows = tl::expand_dims<1>(offs_m) * D + tl::expand_dims<0>(offs_d);
  auto q_tile = tl::load(q + rows, tl::expand_dims<1>(offs_m) < n, 0.0f);
  auto do_tile = tl::load(dO + rows, tl::expand_dims<1>(offs_m) < n, 0.0f);
  auto acc = tl::zeros<float, BM, D>();
  for (int start = 0; start < n; start += BN) {
    auto offs_n = start + tl::arange<0, BN>();
    auto keys = tl::expand_dims<1>(offs_n) * D + tl::expand_dims<0>(offs_d);
    auto k_tile = tl::load(k + keys, tl::expand_dims<1>(offs_n) < n, 0.0f);
    auto v_tile = tl::load(v + keys, tl::expand_dims<1>(offs_n) < n, 0.0f);
    auto s = tl::dot(q_tile, tl::trans(k_tile));
    auto p = tl::exp2(s);
    auto dp = tl::dot(do_tile, tl::trans(v_tile));
    acc = tl::dot(tl::cast<tl::half>(p * dp), k_tile, acc);
  }
  tl::store(dq + rows, acc, tl::expand_dims<1>(offs_m) < n);
}

// The forward's two dots depend on each other (P from S): both wait where they are issued.
template <int BM, int BN, int D>
TILEC_KERNEL void fwd_like(const tl::half *q, const tl::half *k, const tl::half *v, float *o,
                           int n) {
  auto offs_m = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto offs_d = tl::arange<0, D>();
  auto rows = tl::expand_dims<1>(offs_m) * D + tl::expand_dims<0>(offs_d);
  auto q_tile = tl::load(q + rows, tl::expand_dims<1>(offs_m) < n, 0.0f);
  auto acc = tl::zeros<float, BM, D>();
  for (int start = 0; start < n; start += BN) {
    auto offs_n = start + tl::arange<0, BN>();
    auto keys = tl::expand_dims<1>(offs_n) * D + tl::expand_dims<0>(offs_d);
    auto k_tile = tl::load(k + keys, tl::expand_dims<1>(offs_n) < n, 0.0f);
    auto v_tile = tl::load(v + keys, tl::expand_dims<1>(offs_n) < n, 0.0f);
    auto p = tl::exp2(tl::dot(q_tile, tl::trans(k_tile)));
    acc = tl::dot(tl::cast<tl::half>(p), v_tile, acc);
  }
  tl::store(o + rows, acc, tl::expand_dims<1>(offs_m) < n);
}

// IR-LABEL: kernel @dq_like<int BM, int BN, int D>
// IR:       [[S:%[0-9]+]]:s = dot "tf32" b^T nowait zero_acc %{{[0-9]+}}:q_tile, %{{[0-9]+}}:k_tile, %{{[0-9]+}}
// IR-NEXT:  %{{[0-9]+}} = constant [0] : float
// IR-NEXT:  %{{[0-9]+}} = splat
// IR-NEXT:  %{{[0-9]+}}:dp = dot "tf32" b^T zero_acc %{{[0-9]+}}:do_tile, %{{[0-9]+}}:v_tile, %{{[0-9]+}}
// IR-NEXT:  dot_wait [[S]]:s
// IR-NEXT:  %{{[0-9]+}}:p = unary "exp2" [[S]]:s
// IR-LABEL: kernel @fwd_like<int BM, int BN, int D>
// IR-NOT:   nowait
// IR-NOT:   dot_wait

// CU-LABEL: dq_like(
// Both accumulators start at zero (zero-accumulators): no zeros are written into them while
// the first dot is in flight, the first wgmma of each band overwrites instead of adding.
// CU:       float s[L0::ELEMS]; // no zeros written first: the dot writes its product (ZERO)
// CU-NOT:   s[i] = 0.0f
// CU:       tilec::dot_smem<L0, tilec::SmemTile<BM, D, tl::half>, tilec::SmemTile<BN, D, tl::half>, tilec::DotTf32, false, true, /*WAIT=*/false, /*ZERO=*/true>(q_tile{{.*}}, k_tile{{.*}}, s, tid);
// The pair is one turn of the warpgroups (pingpong-warpgroups): the second is issued without
// waiting too, the turn passes, then both complete.
// CU:       tilec::dot_smem<L0, tilec::SmemTile<BM, D, tl::half>, tilec::SmemTile<BN, D, tl::half>, tilec::DotTf32, false, true, /*WAIT=*/false, /*ZERO=*/true>(do_tile{{.*}}, v_tile{{.*}}, dp, tid);
// CU-NEXT:  tilec::turn_end<turns>(tid);
// CU-NEXT:  // the tensor cores are done with the tl::dots issued without waiting
// CU-NEXT:  tilec::dot_wait(s);
// CU-NEXT:  tilec::dot_wait(dp);
// The forward's dots depend on each other: not a pair, so the first completes (right after its
// turn) before anything reads it.
// CU-LABEL: fwd_like(
// CU:       tilec::dot_smem<{{.*}}(q_tile{{.*}}, k_tile{{.*}}, [[S:t[0-9]+]], tid);
// CU-NEXT:  tilec::turn_end<turns>(tid);
// CU-NEXT:  // the tensor cores are done with the tl::dots issued without waiting
// CU-NEXT:  tilec::dot_wait([[S]]);
// CU:       tilec::dot_regs_a<{{.*}}/*WAIT=*/false>(
// CU-NEXT:  tilec::turn_end<turns>(tid);
// CU-NEXT:  // the tensor cores are done with the tl::dots issued without waiting
// CU-NEXT:  tilec::dot_wait(
// CU-NOT:   dot_wait
