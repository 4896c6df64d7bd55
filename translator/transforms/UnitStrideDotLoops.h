// UnitStrideDotLoops: a loop with a tl::dot whose loads step along a dimension by kernel
// arguments gets a copy for those arguments equal to 1.
//
// Triton's matmuls pass every stride, the innermost ones too (tutorial 03, vLLM's fused MoE):
//
//   a_ptrs = a + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak;
//   b_ptrs = b + expert * stride_be + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn;
//
// Nothing tells the analyses that stride_ak is 1, so the pipeline copies the operands one
// element at a time (Triton compiles the kernel again when an argument is 1). unit-stride-
// accesses versions single accesses, but a dot loop's loads belong to the pipeline, which
// stages the loop as a whole; so the whole loop is versioned:
//
//   if constexpr (stride_ak_is_1 && stride_bn_is_1) { the loop, those arguments 1 }
//   else if constexpr (stride_ak_is_1 && stride_bk_is_1) { ... }
//   else { the loop }
//
// Each arm's loop (and the pointer arithmetic before it that reads the arguments) sees the
// constant, so axis-info finds the runs, transpose-loads takes an operand contiguous along
// its first dimension, and the pipeline copies 16 bytes at a time. The conditions are
// specialization facts (ir/SpecFacts.h): each specialization compiles one arm.
//
// A load qualifies along a dimension when a term of its pointer offset varies along it as
// an arange (shifted, wrapped by %) times integer arguments, and it is not contiguous there
// already; rows gathered through loaded indices (`sorted_token_ids`) never are, along that
// dimension. The versions are the combinations of one dimension per qualifying load (the last
// dimension first), at most kMaxVersions. On targets with the copy engine a loop whose every
// qualifying load is affine in arange rows is left to tma-copies (the launcher encodes the
// strides into the tensor map); one with a gathered operand is versioned.
#pragma once

#include "ir/IR.h"

namespace tilec {

struct Target;

void runUnitStrideDotLoops(Kernel &k, const Target &target);

} // namespace tilec
