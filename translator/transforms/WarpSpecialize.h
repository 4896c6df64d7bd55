// WarpSpecialize: on targets with the copy engine, a pipelined tl::dot loop whose copies are
// all TMA's (tma-copies) gets a producer warpgroup: 128 threads after the program's own, one of
// which issues every stage's copies, waiting only until the consumers free the stage; the
// consumers no longer copy or pass a barrier per iteration, they wait for their stage, compute
// and free it.
//
//   before:  ... %landed = mbarrier_ring ; prologue for { ... tma_copy ... }
//            for %k = lo to hi (%acc, ..., %read_stage, %phase) {
//              async_wait %landed ; mbarrier_wait %landed, %read_stage, %phase ; barrier
//              if (%k_ahead < hi) { tma_copy ... ; mbarrier_arrive } ; async_commit
//              ... dot (stage_view %ring, %read_stage) ... }
//   after:   ... %landed = mbarrier_ring ; %freed = freed_ring
//            %ws = warp_specialized %landed, %freed           (every map encoded, and allowed)
//            %p = producer_thread %ws
//            producer_branch {                      the producer warpgroup runs this and leaves
//              if %p { for %k = lo to hi (%stage = 0, %phase = 0) {
//                        mbarrier_wait %freed, %stage, %phase ^ 1
//                        tma_load ... ; mbarrier_arrive %landed, %stage ; ... } } }
//            %acc = if %ws { for %k ... { mbarrier_wait %landed ... ; dot ... ;
//                                          mbarrier_release %freed, %read_stage } }
//                   else { the prologue and the loop as they were (cp.async where a map is not
//                          encoded; the producer warpgroup has left) }
//
// The producer warpgroup runs the kernel up to the branch with everyone else, so it has every
// value the copies' coordinates need; that code must therefore touch no memory through tiles
// and pass no barrier but the mbarriers' initialization (checked: register arithmetic, scalar
// loads, the schedule's declarations). The consumers' part of the loop must pass no barrier
// either (its tl::dot reads both operands from shared memory; nothing else there uses shared
// memory). After the loop the producer has left, and __syncthreads counts only the threads
// still running. The producer warpgroup gives most of its registers to the consumers
// (setmaxnreg) when the consumers are whole warpgroups.
#pragma once

#include "ir/IR.h"
#include "target/Target.h"

namespace tilec {

void runWarpSpecialize(Kernel &k, const Target &target);

} // namespace tilec
