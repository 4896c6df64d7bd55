// FreeStages: on sm_90a, a pipelined loop whose stages all come from the copy engine (tma-copies
// gave its cp.async wait the mbarrier ring) stops meeting at a barrier every iteration. The
// barrier was there so that no thread overwrites a stage another warp still reads; instead each
// warp frees the stage it read (one arrival on a `freed` mbarrier per warp, after the last
// tl::dot that reads the stage), and before copying into a stage every thread waits until all
// warps freed that stage's last round. The warps of a program may then run up to an iteration
// apart: one warpgroup's softmax beside the other's tensor-core work, where the barrier kept
// them in step. Warp-specialized kernels already work this way (warp-specialize); a launch whose
// maps could not all be encoded keeps the barrier (the cp.async copies need it).
//
//   before:  for ... { async_wait %landed ; mbarrier_wait %landed, %read, %phase ; barrier ;
//                      %write = ... ; if (...) { copies into %write } ; ... ; dot %a, %stage }
//   after:   %freed = freed_ring %landed
//            for ... { async_wait %landed ; mbarrier_wait %landed, %read, %phase ;
//                      barrier %landed                       (only when not every copy is TMA's)
//                      %write = ... ; mbarrier_wait %freed, %write, %freed_parity ;
//                      if (...) { copies into %write } ; ... ; dot %a, %stage ;
//                      mbarrier_release %freed, %read }
//            mbarrier_inval %freed
//
// The loop qualifies when every read of its stages is a tl::dot of its body (not nested), so
// that the last of them (or the dot_wait completing it) is where the stage is free.
#pragma once

#include "ir/IR.h"
#include "target/Target.h"

namespace tilec {

void runFreeStages(Kernel &k, const Target &target);

} // namespace tilec
