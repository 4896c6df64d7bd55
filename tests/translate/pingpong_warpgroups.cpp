// Two warpgroups taking turns at the tensor cores (pingpong-warpgroups, sm_90a): in a loop
// whose stages free-stages freed, where a tl::dot's result goes through arithmetic into the next
// tl::dot, each dot is a turn: the warpgroup waits for it, issues the dot, passes the turn on,
// then waits for the dot. Loops whose dots do not feed each other keep no turns.
#include <tilec/tl.h>

// An attention forward's loop: Q K^T, a softmax, P V.
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

// Two dots of one iteration that do not read each other: the tensor cores have no arithmetic
// to wait for between them, so no turns.
template <int BM, int BN, int D>
TILEC_KERNEL void independent(const tl::half *q, const tl::half *k, const tl::half *v, float *o,
                              int n) {
  auto offs_m = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto offs_d = tl::arange<0, D>();
  auto rows = tl::expand_dims<1>(offs_m) * D + tl::expand_dims<0>(offs_d);
  auto q_tile = tl::load(q + rows, tl::expand_dims<1>(offs_m) < n, 0.0f);
  auto acc = tl::zeros<float, BM, BN>();
  for (int start = 0; start < n; start += BN) {
    auto offs_n = start + tl::arange<0, BN>();
    auto keys = tl::expand_dims<1>(offs_n) * D + tl::expand_dims<0>(offs_d);
    auto k_tile = tl::load(k + keys, tl::expand_dims<1>(offs_n) < n, 0.0f);
    auto v_tile = tl::load(v + keys, tl::expand_dims<1>(offs_n) < n, 0.0f);
    acc = tl::dot(q_tile, tl::trans(k_tile), acc);
    acc = tl::dot(q_tile, tl::trans(v_tile), acc);
  }
  auto cols = tl::arange<0, BN>();
  tl::store(o + tl::expand_dims<1>(offs_m) * BN + tl::expand_dims<0>(cols), acc,
            tl::expand_dims<1>(offs_m) < n);
}

// IR-LABEL: kernel @fwd_like<int BM, int BN, int D>
// IR:       [[FREED:%[0-9]+]]:freed = freed_ring
// IR-NEXT:  [[TURNS:%[0-9]+]]:turns = warpgroup_turns
// IR-NEXT:  {{.*}} = for "<"
// IR:         turn_begin [[TURNS]]:turns
// IR-NEXT:    [[S:%[0-9]+]] = dot "tf32" b^T nowait zero_acc
// IR-NEXT:    turn_end [[TURNS]]:turns, [[S]]
// IR-NEXT:    dot_wait [[S]]
// IR-NEXT:    {{.*}} = unary "exp2" [[S]]
// IR:         turn_begin [[TURNS]]:turns
// IR-NEXT:    [[O:%[0-9]+]]:acc = dot "tf32" a:regs nowait
// IR-NEXT:    turn_end [[TURNS]]:turns, [[O]]:acc
// IR-NEXT:    dot_wait [[O]]:acc
// IR-NEXT:    mbarrier_release [[FREED]]:freed
// IR:       turns_finish [[TURNS]]:turns
// IR-NEXT:  async_wait

// IR-LABEL: kernel @independent<int BM, int BN, int D>
// IR-NOT:   warpgroup_turns
// IR-NOT:   turn_begin

// CU-LABEL: fwd_like(
// Two warpgroups (8 warps), each holding its rows of both products, both on wgmma:
// CU:       constexpr bool turns = THREADS == 2 * tilec::WARPGROUP_THREADS &&
// CU-NEXT:      tilec::rows_per_warpgroup<L0, THREADS>() && tilec::wgmma_fits<L0, tilec::SmemTile<BM, D, tl::half>, tilec::SmemTile<BN, D, tl::half>, false, true, tl::half, float>() &&
// CU-NEXT:      tilec::rows_per_warpgroup<L1, THREADS>() && tilec::wgmma_regs_a_fits<L1, L0, tilec::SmemTile<BN, D, tl::half>, false, tl::half, float>();
// CU-NEXT:  tilec::turns_start<turns>(tid); // the first warpgroup goes first
// CU:       tilec::turn_begin<turns>(tid);
// CU:       /*WAIT=*/false, /*ZERO=*/true>(q_tile{{.*}}, k_tile{{.*}}, [[S:t[0-9]+]], tid);
// CU-NEXT:  tilec::turn_end<turns>(tid);
// CU-NEXT:  // the tensor cores are done with the tl::dots issued without waiting
// CU-NEXT:  tilec::dot_wait([[S]]);
// The P V product, A in registers, is in flight too while the turn passes: nothing runs between
// its issue and its wait but the hand-over.
// CU:       tilec::turn_begin<turns>(tid);
// CU:       tilec::dot_regs_a<L1, L0, tilec::SmemTile<BN, D, tl::half>, tilec::DotTf32, false, /*WAIT=*/false>({{.*}}, v_tile, [[O:acc_[0-9]+]], tid, smem);
// CU-NEXT:  tilec::turn_end<turns>(tid);
// CU-NEXT:  // the tensor cores are done with the tl::dots issued without waiting
// CU-NEXT:  tilec::dot_wait([[O]]);
// CU:       tilec::turns_finish<turns>(tid); // the turn passed back last

// CU-LABEL: independent(
// CU-NOT:   tilec::turn
