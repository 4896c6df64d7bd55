// Stages freed by the warps (free-stages, sm_90a): a pipelined loop whose copies are all the
// copy engine's frees each stage with one mbarrier arrival per warp after the last tl::dot
// that reads it, and waits for every warp's arrival before copying into a stage, instead of a
// barrier per iteration; the barrier stays for launches whose copies are cp.async's.
#include <tilec/tl.h>

// An attention forward's loop: K and V stages, both read by tl::dots of the loop's body.
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

// Two independent dots (overlap-dots issues the first without waiting): the stage is free
// after the dot_wait that completes it, not after the second dot. (The second dot's zero
// accumulator follows the first dot right away: overlap-dots once moved the splat above its
// own constant here, an internal error.)
template <int BM, int BN, int D>
TILEC_KERNEL void two_dots(const tl::half *q, const tl::half *k, const tl::half *v, float *o,
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
    auto s = tl::dot(q_tile, tl::trans(k_tile));
    auto t = tl::dot(q_tile, tl::trans(v_tile));
    acc += tl::exp2(s) * t;
  }
  auto cols = tl::arange<0, BN>();
  tl::store(o + tl::expand_dims<1>(offs_m) * BN + tl::expand_dims<0>(cols), acc,
            tl::expand_dims<1>(offs_m) < n);
}

// IR-LABEL: kernel @fwd_like<int BM, int BN, int D>
// IR:       [[LANDED:%[0-9]+]]:landed = mbarrier_ring
// IR:       [[FREED:%[0-9]+]]:freed = freed_ring [[LANDED]]:landed
// IR-NEXT:  {{.*}} = for "<"
// IR:         async_wait [[LANDED]]:landed
// IR-NEXT:    mbarrier_wait [[LANDED]]:landed, [[READ:%[0-9]+]]:read_stage, [[PHASE:%[0-9]+]]:phase
// IR-NEXT:    barrier [[LANDED]]:landed
// IR:         [[WRITE:%[0-9]+]]:write_stage = binary "%"
// IR:         [[WRAPS:%[0-9]+]] = binary "==" [[READ]]:read_stage
// IR-NEXT:    [[PREV:%[0-9]+]] = binary "^" [[PHASE]]:phase
// IR-NEXT:    [[PARITY:%[0-9]+]]:freed_parity = select [[WRAPS]], [[PREV]], [[PHASE]]:phase
// IR-NEXT:    mbarrier_wait [[FREED]]:freed, [[WRITE]]:write_stage, [[PARITY]]:freed_parity
// IR-NEXT:    if
// IR:         dot "tf32" a:regs
// IR-NEXT:    mbarrier_release [[FREED]]:freed, [[READ]]:read_stage
// IR:       mbarrier_inval [[LANDED]]:landed
// IR-NEXT:  mbarrier_inval [[FREED]]:freed

// IR-LABEL: kernel @two_dots<int BM, int BN, int D>
// IR:       [[FREED2:%[0-9]+]]:freed = freed_ring
// IR:         dot "tf32" b^T nowait
// IR:         dot_wait
// IR-NEXT:    mbarrier_release [[FREED2]]:freed

// CU-LABEL: fwd_like(
// CU:       __shared__ unsigned long long freed[PIPELINE_STAGES];
// CU-NEXT:  if (tid == 0) {
// CU-NEXT:    for (int s = 0; s < PIPELINE_STAGES; ++s) tilec::mbarrier_init(&freed[s], NUM_WARPS);
// CU-NEXT:    tilec::mbarrier_init_done();
// CU-NEXT:  }
// CU-NEXT:  __syncthreads();
// CU:       if (landed_in_use) tilec::mbarrier_wait(&landed[read_stage], phase);
// CU-NEXT:  // free_stages.cpp:{{[0-9]+}}: every thread is done with the stage the last iteration read
// CU-NEXT:  if (!landed_all_tma) __syncthreads();
// CU:       const int freed_parity = ((read_stage == 0) ? (phase ^ 1) : phase);
// CU-NEXT:  // free_stages.cpp:{{[0-9]+}}: every warp is done reading the stage the copies write
// CU-NEXT:  tilec::mbarrier_wait(&freed[write_stage], freed_parity);
// CU:       tilec::dot_regs_a<
// CU-NEXT:  tilec::turn_end<turns>(tid);
// CU-NEXT:  // the tensor cores are done with the tl::dots issued without waiting
// CU-NEXT:  tilec::dot_wait(
// CU-NEXT:  // free_stages.cpp:{{[0-9]+}}: this warp is done reading the stage
// CU-NEXT:  if (tid % tilec::WARP_SIZE == 0) tilec::mbarrier_arrive(&freed[read_stage]);
// CU:       for (int s = 0; s < PIPELINE_STAGES; ++s) tilec::mbarrier_inval(&landed[s]);
// CU-NEXT:  // free_stages.cpp:{{[0-9]+}}: the mbarriers are done with
// CU-NEXT:  if (tid == 0)
// CU-NEXT:    for (int s = 0; s < PIPELINE_STAGES; ++s) tilec::mbarrier_inval(&freed[s]);
