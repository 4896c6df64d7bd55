// PingpongWarpgroups: on sm_90a, the two warpgroups of a program take turns at the tensor cores
// in a loop where a tl::dot's result goes through other arithmetic into another tl::dot of the
// same iteration (attention: the scores' softmax between Q K^T and P V). Left alone, both
// warpgroups issue their dots together and then both compute the softmax together, while the
// tensor cores idle; taking turns, one warpgroup's dots run while the other computes.
//
// Each group of dots the loop runs back to back (one dot, or an overlap-dots pair) becomes a
// turn: the warpgroup waits for its turn, issues the dots, passes the turn to the other, and
// only then waits for them to complete (nothing runs between the issue and the wait but the
// hand-over, so an A operand in registers stays untouched while in flight).
//
//   before:  for ... { ... ; %s = dot %q, %k ; <softmax of %s> ; %o = dot regs %p, %v, %acc ;
//                      mbarrier_release ... }
//   after:   %turns = warpgroup_turns
//            for ... { ... ; turn_begin %turns ; %s = dot nowait %q, %k ;
//                      turn_end %turns, %s ; dot_wait %s ; <softmax of %s> ;
//                      turn_begin %turns ; %o = dot nowait regs %p, %v, %acc ;
//                      turn_end %turns, %o ; dot_wait %o ; mbarrier_release ... }
//            turns_finish %turns
//
// Only loops that free-stages rewrote qualify (no barrier of the whole block per iteration in
// the copy engine's path, so the warpgroups can drift half an iteration apart). The emitter
// turns the flag on where the program has two warpgroups, each holding its own rows of every
// dot's result, and the dots run on wgmma; elsewhere the turns compile to nothing.
#pragma once

#include "ir/IR.h"
#include "target/Target.h"

namespace tilec {

void runPingpongWarpgroups(Kernel &k, const Target &target);

} // namespace tilec
