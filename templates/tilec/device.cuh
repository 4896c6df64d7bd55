// tilec/device.cuh: the device library that generated CUDA includes.
//
//   device/common/  what every supported GPU (sm_80 and newer) runs: types, layouts,
//                   global accesses, reductions, scans, atomics, shared-memory tiles, ...
//   device/sm80/    Ampere tensor-core code, also used on newer GPUs: mma.sync, ldmatrix,
//                   cp.async, the mma accumulator layout
//   device/sm90/    Hopper-only code (wgmma), compiled only for sm_90a
//                   (__CUDA_ARCH_FEAT_SM90_ALL) and empty elsewhere
//   device/dot.cuh  tl::dot's choice between sm90/ and sm80/
//
// The generated code is compiled for the GPU it runs on, so one source serves every family;
// the preprocessor picks the paths. Headers include each other by full name
// (<tilec/device/...>): NVRTC matches in-memory headers by exact include name.
#pragma once

// The generated kernels' __launch_bounds__: their block size, and with -DTILEC_MIN_BLOCKS=N
// (the runtime compiles a kernel again so to reach the next occupancy step:
// runtime/src/occupancy_step.h) room in the registers for N blocks per SM. Without it the
// compiler chooses (a second argument of 1 is not the same to ptxas: it spills differently).
#ifdef TILEC_MIN_BLOCKS
#define TILEC_LAUNCH_BOUNDS(threads) __launch_bounds__(threads, TILEC_MIN_BLOCKS)
#else
#define TILEC_LAUNCH_BOUNDS(threads) __launch_bounds__(threads)
#endif

#include <tilec/device/common/atomic_runs.cuh>
#include <tilec/device/common/atomics.cuh>
#include <tilec/device/common/broadcast.cuh>
#include <tilec/device/common/compat.cuh>
#include <tilec/device/common/constexpr_math.cuh>
#include <tilec/device/common/debug.cuh>
#include <tilec/device/common/elementwise.cuh>
#include <tilec/device/common/gather.cuh>
#include <tilec/device/common/global_access.cuh>
#include <tilec/device/common/histogram.cuh>
#include <tilec/device/common/layout.cuh>
#include <tilec/device/common/layout2d.cuh>
#include <tilec/device/common/layout3d.cuh>
#include <tilec/device/common/layout_traits.cuh>
#include <tilec/device/common/random.cuh>
#include <tilec/device/common/reduce.cuh>
#include <tilec/device/common/reduce_axis.cuh>
#include <tilec/device/common/reduce_axis_smem.cuh>
#include <tilec/device/common/relayout.cuh>
#include <tilec/device/common/scan.cuh>
#include <tilec/device/common/scan_axis.cuh>
#include <tilec/device/common/scan_axis_smem.cuh>
#include <tilec/device/common/smem_tile.cuh>
#include <tilec/device/common/smem_transpose.cuh>
#include <tilec/device/common/sort.cuh>
#include <tilec/device/common/types.cuh>
#include <tilec/device/common/warp.cuh>

#include <tilec/device/sm80/cp_async.cuh>
#include <tilec/device/sm80/mma.cuh>
#include <tilec/device/sm80/mma_layout.cuh>
#include <tilec/device/sm80/mma_store.cuh>
#include <tilec/device/sm80/reduce_axis_mma.cuh>

#include <tilec/device/sm90/prefetch.cuh>
#include <tilec/device/sm90/tma.cuh>
#include <tilec/device/sm90/turns.cuh>
#include <tilec/device/sm90/wgmma.cuh>
#include <tilec/device/sm90/wgmma_ops.cuh>

#include <tilec/device/dot.cuh>
