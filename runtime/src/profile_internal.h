// profile_internal.h - what the launch and compile paths call for profiling (profile.h) and
// for NVTX ranges (named after the specialization, seen by Nsight Systems and Nsight
// Compute; nearly free when no tool is attached).
#pragma once

#include "driver_api.h"

#include <string>

namespace tilec::detail {

/// Around one launch: an NVTX range, and while profiling, the launch's count and (when the
/// queue of timings in flight has room) a pair of events on its stream; at its first launch, a
/// specialization's registers and local memory per thread (from `fn`).
class LaunchProbe {
public:
  LaunchProbe(const std::string &kernel, const DeviceContext &where, CUfunction fn,
              CUstream stream);
  /// Call right after cuLaunchKernel with its result.
  void launched(CUresult r);
  ~LaunchProbe();
  LaunchProbe(const LaunchProbe &) = delete;
  LaunchProbe &operator=(const LaunchProbe &) = delete;

private:
  const std::string &kernel_;
  const DeviceContext &where_;
  CUfunction fn_;
  CUstream stream_;
  int slot_ = -1; ///< the event pair recording this launch, if it is timed
};

/// An NVTX range for the life of the object ("tilec compile <kernel> (<arch>)", ...).
class NvtxRange {
public:
  explicit NvtxRange(const std::string &name);
  ~NvtxRange();
  NvtxRange(const NvtxRange &) = delete;
  NvtxRange &operator=(const NvtxRange &) = delete;
};

} // namespace tilec::detail
