// LowerPipeline: a loop that PipelineLoads marked `pipelined` becomes its schedule, as ops.
//
// The producer part (the loads that feed tl::dot and what their addresses come from) runs
// STAGES - 1 iterations ahead of the rest, copying into rings of STAGES shared-memory stage
// buffers with async copies; tl::dot reads the stage of its iteration. STAGES is printed
// PIPELINE_STAGES: the launch option NUM_STAGES, at least 2 (the emitters define it).
//
//   before:  %acc, %pa = for pipelined producer_carried(1) %k = lo to hi (%acc0, %pa0) {
//              %a = load async producer %pa ; %acc2 = dot %a, %b, %acc
//              %pa2 = addptr producer %pa, %s ; yield %acc2, %pa2 }
//   after:   %a_stages = smem_ring : smem<T, STAGES, M, K>
//            for %stage = 0 to STAGES - 1 (%k_ahead = lo, ...) {       the prologue
//              if (%k_ahead < hi) { %v = stage_view %a_stages, %stage ; async_copy %v, ... }
//              async_commit ; yield %k_ahead + step, ... }
//            for %k = lo to hi (%acc0, ..., %k_ahead, %read_stage = 0) {
//              async_wait [STAGES - 2] ; barrier    this iteration's stage has landed, and
//                                                   every thread is done with the last one
//              if (%k_ahead < hi) { the producer, into stage (read_stage + STAGES - 1) % STAGES }
//              async_commit
//              %a = stage_view %a_stages, %read_stage ; %acc2 = dot %a, %b, %acc
//              yield ..., %read_stage + 1 == STAGES ? 0 : %read_stage + 1 }
//            async_wait [0] ; barrier               the stage buffers are free again
//
// A pointer tile the producer advances by a scalar each iteration (`a_ptrs += BLOCK_K`) is
// carried as the scalar distance advanced instead, its pointers recomputed from their initial
// expression where they are used: a few address operations rather than a tile of pointers
// held in registers across the loop.
#pragma once

#include "ir/IR.h"

namespace tilec {

/// The stage count of the rings: PIPELINE_STAGES, which the kernel defines as NUM_STAGES, at
/// least 2 (and the launchers as their num_stages, at least 2).
const SymExpr &pipelineStages();

void runLowerPipeline(Kernel &k);

} // namespace tilec
