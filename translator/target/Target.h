// Target: what the generated code may rely on, built from the tool's --arch (default sm_90a).
//
// The translator does not compile the CUDA it writes: the runtime compiles it with NVRTC for
// the GPU it finds at launch, and MODE nvcc builds compile it for TILEC_AOT_ARCHITECTURES. So a
// Target describes the family of GPUs the output must run on, not the GPU that will run it:
// the translator may rely on what every GPU of the family has (the warp size; mma.sync,
// ldmatrix and cp.async from sm_80 on), while instructions that only some of them have stay
// behind the device library's preprocessor guards, as wgmma does today
// (__CUDA_ARCH_FEAT_SM90_ALL in templates/tilec/device/sm90/, chosen by device/dot.cuh): the
// same output takes the wgmma path when it is compiled for sm_90a and mma.sync elsewhere.
// The shared-memory limits are those of the named architecture; the runtime checks the real
// GPU's opt-in limit again when it launches.
//
// Every target: 32 threads per warp, at most 1024 threads per block, mma.sync, cp.async and
// mbarrier objects, 48 KiB of shared memory per block without opting in. Beyond that:
//
//   arch     fp8 mma.sync  wgmma  TMA, mbarrier tx  smem opt-in
//   sm_80    -             -      -                 163 KiB
//   sm_86    -             -      -                  99 KiB
//   sm_87    -             -      -                 163 KiB
//   sm_89    yes           -      -                  99 KiB
//   sm_90    yes           -      yes               227 KiB
//   sm_90a   yes           yes    yes               227 KiB
//   sm_100   yes           -      yes               227 KiB   (also sm_100a)
//   sm_120   yes           -      yes                99 KiB
#pragma once

#include <string>
#include <vector>

namespace tilec {

struct Target {
  std::string arch;          ///< as NVRTC's --gpu-architecture spells it: "sm_90a"
  int major = 0, minor = 0;  ///< compute capability: 9, 0
  bool archSpecific = false; ///< the "a" suffix: also the features of exactly this architecture

  int warpSize = 32;             ///< threads per warp (tilec::WARP_SIZE in the device library)
  int maxThreadsPerBlock = 1024; ///< so at most maxThreadsPerBlock / warpSize warps

  // Tensor-core instructions tl::dot may use.
  bool mmaSync = false;    ///< mma.sync m16n8k16 (half, bfloat16), m16n8k8 tf32, m16n8k32 int8
  bool mmaSyncFp8 = false; ///< mma.sync m16n8k32 with e4m3 / e5m2 operands (sm_89 and newer)
  bool wgmma = false;      ///< wgmma.mma_async, warpgroup operands from shared memory (sm_90a)

  // Asynchronous copies into shared memory.
  bool cpAsync = false;    ///< cp.async, per-thread copies of 4, 8 or 16 bytes (sm_80 and newer)
  bool tma = false;        ///< cp.async.bulk.tensor: tile copies by the Tensor Memory Accelerator
  bool mbarrier = false;   ///< mbarrier objects in shared memory: init, arrive, test_wait
  bool mbarrierTx = false; ///< mbarrier transaction counts and try_wait, which TMA completes on

  // Shared memory per block, in bytes.
  int smemPerBlock = 48 * 1024; ///< without opting in (static __shared__ arrays at most this)
  int smemPerBlockOptin = 0;    ///< the most a launch may opt into (dynamic shared memory)

  int maxWarpsPerBlock() const { return maxThreadsPerBlock / warpSize; }

  /// The target of `arch` ("sm_80", "sm_90a", ...). Returns an error message, or "" and sets
  /// `out`.
  static std::string parse(const std::string &arch, Target &out);
  /// The target when --arch is not given: sm_90a.
  static Target defaultTarget();
  /// The architectures parse accepts, oldest first.
  static const std::vector<std::string> &knownArchs();
};

} // namespace tilec
