// tilec/device.cuh: the device library that generated CUDA includes.
// Headers include each other by full name (<tilec/device/...>): NVRTC matches in-memory
// headers by exact include name.
#pragma once

#include <tilec/device/atomics.cuh>
#include <tilec/device/broadcast.cuh>
#include <tilec/device/compat.cuh>
#include <tilec/device/constexpr_math.cuh>
#include <tilec/device/cp_async.cuh>
#include <tilec/device/debug.cuh>
#include <tilec/device/elementwise.cuh>
#include <tilec/device/global_access.cuh>
#include <tilec/device/layout.cuh>
#include <tilec/device/layout2d.cuh>
#include <tilec/device/layout3d.cuh>
#include <tilec/device/layout_traits.cuh>
#include <tilec/device/mma.cuh>
#include <tilec/device/mma_layout.cuh>
#include <tilec/device/random.cuh>
#include <tilec/device/reduce.cuh>
#include <tilec/device/reduce_axis.cuh>
#include <tilec/device/reduce_axis_smem.cuh>
#include <tilec/device/relayout.cuh>
#include <tilec/device/scan.cuh>
#include <tilec/device/scan_axis.cuh>
#include <tilec/device/scan_axis_smem.cuh>
#include <tilec/device/smem_tile.cuh>
#include <tilec/device/types.cuh>
#include <tilec/device/wgmma.cuh>
#include <tilec/device/wgmma_ops.cuh>
#include <tilec/device/warp.cuh>
