// PersistentPrograms: a warp-specialized kernel (warp-specialize) runs its programs in turn
// in each block, so that the launcher may start only as many blocks as fit on the GPU at once
// (a persistent grid) when the producer warpgroup loads. The producer then issues the copies of
// a block's next program while the consumers are still in the previous one's epilogue: the
// pipeline fills once per block rather than once per program, and no block waits for a wave.
//
//   before:  <the program's values: program_id(0), offsets, accumulators...> ; <declarations>
//            producer_branch { if %p { for %k (%stage = 0, %phase = 0) { copies } } }
//            %acc = if %ws { for %k (%acc, %read_stage = 0, %phase = 0) { ... } }
//                   else { the prologue and the loop that copies }
//            async_wait ; barrier ; mbarrier_inval ; <epilogue: stores>
//   after:   <declarations> ; %first = program_id(0) ; %programs ; %blocks = num_programs(0)
//            producer_branch { if %p {
//              for %program = %first to %programs step %blocks (%stage, %phase) {
//                <the program's values for %program> ; for %k (%stage, %phase) { copies } } } }
//            for %program = %first to %programs step %blocks (%read_stage, %phase) {
//              <the program's values for %program>
//              %acc, %read_stage, %phase = if %ws { for %k (%acc, %read_stage, %phase) { ... } }
//                  else { the prologue and the loop ; async_wait ; mbarrier_restart }
//              <epilogue> }
//            async_wait ; barrier ; mbarrier_inval
//
// Both loops over the programs carry their position in the stage ring, so the producer and
// the consumers go on where the previous program left off. Without the producer (a map the
// launcher could not encode) the loop that copies runs each program from a fresh pipeline:
// every thread waits and the mbarriers start over in between (mbarrier_restart).
//
// Qualifies: the kernel reads no tl::num_programs (a persistent launch changes it), and its
// epilogue passes no barrier and uses no shared memory (the producer warpgroup is busy with
// the next program then, not at the barrier), and does not return early. The launcher passes
// the grid's x as `programs` and may launch fewer blocks only when every map is encoded and
// the producer warpgroup loads; otherwise each block runs one program, as before.
#pragma once

#include "ir/IR.h"
#include "target/Target.h"

namespace tilec {

void runPersistentPrograms(Kernel &k, const Target &target);

/// Whether the kernel runs its programs in turn (it has a `programs` argument).
bool hasPersistentPrograms(const Kernel &k);

} // namespace tilec
