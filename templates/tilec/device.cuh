// tilec/device.cuh: the device library that generated CUDA includes.
// Headers include each other by full name (<tilec/device/...>): NVRTC matches in-memory
// headers by exact include name.
#pragma once

#include <tilec/device/compat.cuh>
#include <tilec/device/constexpr_math.cuh>
#include <tilec/device/types.cuh>
#include <tilec/device/layout.cuh>
#include <tilec/device/elementwise.cuh>
#include <tilec/device/global_access.cuh>
