// tilec/tl.h - the tile vocabulary kernels are written in (SPEC.md sections 1-3).
//
//   template <int BLOCK>
//   TILEC_KERNEL void add_kernel(const float* x, const float* y, float* out, int n) {
//     auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
//     auto mask = offs < n;
//     tl::store(out + offs, tl::load(x + offs, mask) + tl::load(y + offs, mask), mask);
//   }
//
// The translator reads kernels written against this header and emits CUDA; compiled by a
// host compiler, the same header runs them on the CPU (tilec/interpret.h).
#pragma once

#include <tilec/types.h>

#include <tilec/tl/atomic.h>
#include <tilec/tl/autotune.h>
#include <tilec/tl/block_ptr.h>
#include <tilec/tl/creation.h>
#include <tilec/tl/debug.h>
#include <tilec/tl/descriptor.h>
#include <tilec/tl/dot.h>
#include <tilec/tl/elementwise.h>
#include <tilec/tl/gather.h>
#include <tilec/tl/hints.h>
#include <tilec/tl/histogram.h>
#include <tilec/tl/inline_asm.h>
#include <tilec/tl/macros.h>
#include <tilec/tl/math.h>
#include <tilec/tl/memory.h>
#include <tilec/tl/memory_hints.h>
#include <tilec/tl/operators.h>
#include <tilec/tl/program.h>
#include <tilec/tl/promotion.h>
#include <tilec/tl/random.h>
#include <tilec/tl/range.h>
#include <tilec/tl/reduction.h>
#include <tilec/tl/scan.h>
#include <tilec/tl/shape.h>
#include <tilec/tl/sort.h>
#include <tilec/tl/swizzle.h>
#include <tilec/tl/tile.h>
