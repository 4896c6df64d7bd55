// KMajorOperands: an 8-bit tl::dot operand B that a pipelined loop stages as [K, N] (N the
// contiguous axis, as a row-major B is stored) is rewritten K-major before the dot.
//
// The tensor cores read 8-bit operands only K-major: wgmma has no transpose for them, and
// mma.sync's B fragment holds 4 consecutive K per register, which ldmatrix gives only from
// [N, K] rows. So each iteration, once its stage has landed, the stage is transposed into a
// [N, K] buffer of the loop's own (smem_buffer, next to its rings), a barrier publishes it,
// and the dot reads the buffer as B^T:
//
//   %b = stage_view %b_stages, %read_stage : smem<int8_t, K, N>
//   %acc2 = dot %a, %b, %acc
// becomes
//   %b_k_major = smem_buffer : smem<int8_t, N, K>          (next to %b_stages)
//   ...
//   smem_transpose %b, %b_k_major ; barrier
//   %acc2 = dot b^T %a, %b_k_major, %acc
//
// The buffer is overwritten in the next iteration only after that iteration's first barrier,
// which every thread reaches after its dot: no second buffer is needed.
#pragma once

#include "ir/IR.h"

namespace tilec {

void runKMajorOperands(Kernel &k);

} // namespace tilec
