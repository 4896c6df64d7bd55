// profile.h - where GPU time goes, per kernel specialization.
//
// With TILEC_PROFILE=1 in the environment (or after profile_start()), every launch through a
// tilec launcher is counted, and launches are timed with a pair of CUDA events recorded on
// their stream around them. Nothing waits for the events at launch time: finished timings are
// collected at later launches and by profile_data(), so profiling does not serialize the GPU
// with the host. While many timings are still in flight, further launches are counted but not
// timed ("timed" below). Each row also says what ptxas gave the specialization: registers per
// thread and local memory per thread (spills and arrays it could not keep in registers), read
// from the driver at the first launch. With TILEC_PROFILE=1 the table is printed on stderr at
// exit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

struct KernelProfile {
  std::string kernel;   ///< the specialization: "matmul<128, 128, 64, 8, __half, ...>"
  std::string arch;     ///< where it ran: "sm_90a"
  uint64_t launches = 0;
  uint64_t timed = 0;   ///< launches whose GPU time was measured
  double total_ms = 0;  ///< GPU time of the timed launches
  int registers = -1;   ///< per thread, as compiled; -1 where the driver did not say
  int local_bytes = -1; ///< local memory per thread (spills); -1 where the driver did not say
  double mean_us() const { return timed ? 1000.0 * total_ms / double(timed) : 0.0; }
  /// GPU time of every launch, from the timed ones' mean.
  double estimated_ms() const { return timed ? total_ms * double(launches) / double(timed) : 0.0; }
};

/// Starts (or resumes) recording; TILEC_PROFILE=1 starts it at the first launch.
void profile_start();
/// Stops recording; what was recorded stays until profile_reset().
void profile_stop();
/// Forgets what was recorded.
void profile_reset();
/// What was recorded, the largest estimated GPU time first; waits for timings in flight.
std::vector<KernelProfile> profile_data();
/// profile_data() as a text table.
std::string profile_table();

} // namespace tilec
