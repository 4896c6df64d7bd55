// tilec/runtime.h - compile translated kernels with NVRTC and launch them through the
// CUDA driver API. This is what the launcher headers written by the translator call.
//
// The driver (libcuda) is loaded with dlopen on first use, so a program that links
// tilec_runtime starts on a machine without a GPU; gpu_available() tells it so cleanly.
#pragma once

#include <tilec/grid.h>
#include <tilec/tma_map.h>
#include <tilec/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace tilec {

/// A CUstream / cudaStream_t; nullptr is the legacy default stream.
using Stream = void *;

/// Every failure of the runtime: NVRTC errors carry the compile log and the path of the
/// generated source; CUDA errors name the kernel and its specialization.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// True when a CUDA driver and at least one device are present. On false, `why` (if given)
/// says what is missing ("libcuda.so.1 not found", "no CUDA device", ...).
bool gpu_available(std::string *why = nullptr);

/// One translated source file, as embedded in a launcher header.
struct Source {
  const char *path; ///< the generated .cu this text came from (for error messages)
  const char *cuda; ///< the CUDA C++ text
};

/// The identity of one specialization of one kernel template: the user's template
/// arguments (types encoded by type_id), num_warps, num_stages and the DIV16 fact mask.
/// The translator refuses kernels whose keys would hold more than kMax values.
struct SpecKey {
  static constexpr int kMax = 64;
  int64_t v[kMax] = {};
  int n = 0;
  /// Any integer: template values, type ids, and the 64-bit DIV16 mask (kept bit for bit).
  template <class I> void push(I x) {
    static_assert(std::is_integral_v<I>, "a specialization key holds integers");
    if (n == kMax)
      throw Error("tilec: too many template arguments in a specialization key");
    v[n++] = int64_t(x);
  }
  bool operator==(const SpecKey &o) const {
    if (n != o.n)
      return false;
    for (int i = 0; i < n; ++i)
      if (v[i] != o.v[i])
        return false;
    return true;
  }
};

/// Small integer identifying an element type inside a SpecKey.
template <class T> constexpr int64_t type_id() {
  if constexpr (std::is_same_v<T, bool>)
    return 1;
  else if constexpr (std::is_same_v<T, int8_t>)
    return 2;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return 3;
  else if constexpr (std::is_same_v<T, int16_t>)
    return 4;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return 5;
  else if constexpr (std::is_same_v<T, int32_t>)
    return 6;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return 7;
  else if constexpr (std::is_same_v<T, int64_t>)
    return 8;
  else if constexpr (std::is_same_v<T, uint64_t>)
    return 9;
  else if constexpr (std::is_same_v<T, float>)
    return 10;
  else if constexpr (std::is_same_v<T, double>)
    return 11;
  else if constexpr (std::is_same_v<T, tl::half>)
    return 12;
  else if constexpr (std::is_same_v<T, tl::bfloat16>)
    return 13;
  else if constexpr (std::is_same_v<T, tl::float8_e4m3>)
    return 14;
  else if constexpr (std::is_same_v<T, tl::float8_e5m2>)
    return 15;
  else
    static_assert(sizeof(T) == 0, "unsupported element type for a template argument");
}

/// Triton-style specialization fact for one run-time argument: a pointer that is 16-byte
/// aligned, or an integer divisible by 16. Other arguments never carry the fact.
template <class T> inline bool div16(const T &arg) {
  if constexpr (std::is_pointer_v<T>)
    return reinterpret_cast<uintptr_t>(arg) % 16 == 0;
  else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return arg % 16 == 0;
  else
    return false;
}

/// Bit i set when argument i carries the div16 fact; the kernel's DIV16 template argument.
/// Launchers pass the first 61 arguments (the last 3 bits are other facts).
template <class... Args> inline uint64_t div16_mask(const Args &...args) {
  static_assert(sizeof...(Args) <= 61, "the last 3 bits of DIV16 are not arguments'");
  uint64_t mask = 0, bit = 1;
  ((mask |= div16(args) ? bit : 0, bit <<= 1), ...);
  return mask;
}

/// `bit` when the integer argument `arg` equals 1 (a kernel compiled for it knows its strides
/// are 1, as Triton's is), else 0: a DIV16 bit past the arguments' own.
template <class T> inline uint64_t one_fact(const T &arg, int bit) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return arg == 1 ? uint64_t(1) << bit : 0;
  else
    return 0;
}

/// `bit` when the grid has one program along an axis (`programs`, the grid's y or z), so
/// that tl::program_id of that axis is 0 in the kernel compiled for it.
inline uint64_t grid_fact(uint32_t programs, int bit) {
  return programs == 1 ? uint64_t(1) << bit : 0;
}

/// `bit` when the launcher encoded every tensor map of the kernel (`live` holds `all`), so
/// that the kernel compiled for it holds only the copy engine's path.
inline uint64_t maps_fact(uint32_t live, uint32_t all, int bit) {
  return live == all ? uint64_t(1) << bit : 0;
}

/// Compile-time options of one NVRTC compile (besides the specialization).
struct CompileOptions {
  /// Extra NVRTC flags, e.g. "-lineinfo".
  std::string extra_flags;
};

/// One kernel template of one translated source. Launcher headers hold one per kernel
/// (a function-local static); it owns the compiled specializations of that template.
/// Thread-safe.
///
/// `template_kinds` has one letter per user template parameter, in order: 'i' (an integer,
/// printed as a number), 'b' (bool, printed true/false), 't' (an element type, stored in the
/// key as type_id<T>() and printed as cuda_type_name<T>()). A SpecKey holds those values
/// followed by num_warps, num_stages and the DIV16 mask, so the specialization's name is
/// "<name><k0, ..., num_warps, num_stages, DIV16u>", e.g. "add_kernel<1024, 4, 3, 7u>".
class Kernel {
public:
  Kernel(const Source &source, const char *name, const char *template_kinds);
  ~Kernel();
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;

  /// Launches the specialization `key`, compiling it first if no cache has it. `params`
  /// point at each argument, as for cuLaunchKernel. A kernel declared with
  /// __launch_bounds__(N) (every generated one is) is compiled for blocks of exactly N
  /// threads where the toolkit's ptxas is found (it is told so: .reqntid), so `num_threads`
  /// must be N. Dynamic shared memory above 48 KB is
  /// opted into automatically. `persistent`: the kernel runs the programs of a 1-D grid in
  /// turn in each block (its launcher says so), so at most as many blocks start as the GPU
  /// holds at once (TILEC_PERSISTENT=0 launches every program's block anyway).
  void launch(const SpecKey &key, Grid grid, int num_threads, size_t shared_bytes, Stream stream,
              void **params, bool persistent = false);

  /// Compiles (or finds in a cache) without launching; returns the CUfunction.
  void *function(const SpecKey &key);

  /// The instantiation name of `key`, e.g. "add_kernel<1024, 4, 3, 7u>".
  std::string name_expression(const SpecKey &key) const;

  /// NVRTC options for specializations compiled from now on (they are part of the disk
  /// cache key). Call before the first launch; already compiled ones are kept.
  void set_compile_options(const CompileOptions &options);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Register a kernel compiled ahead of time by nvcc (tilec_add_kernels MODE nvcc).
/// `name_expression` is the full instantiation ("add_kernel<1024, 4, 3, 7u>") and
/// `resolve` returns its CUfunction (the AOT translation unit uses cudaGetFuncBySymbol).
/// Kernel::launch uses a registered function before compiling anything with NVRTC.
void register_aot_kernel(const char *name_expression, void *(*resolve)());

/// Where compiled cubins are kept: $TILEC_CACHE_DIR, else ~/.cache/tilec.
std::string cache_dir();

/// Counters for tests and benchmarks.
struct RuntimeStats {
  uint64_t nvrtc_compiles = 0;         ///< specializations compiled with NVRTC in this process
  uint64_t disk_hits = 0;              ///< specializations loaded from the disk cache
  uint64_t disk_rejected = 0;          ///< disk entries found corrupt and recompiled
  uint64_t memory_hits = 0;            ///< launches served from the in-memory table
  uint64_t autotunings = 0;            ///< autotuning key values whose configs were timed
  uint64_t autotune_disk_hits = 0;     ///< autotuning choices read from the disk cache
  uint64_t autotune_disk_rejected = 0; ///< autotuning records found corrupt or stale
  uint64_t persistent_launches = 0;    ///< launches that started fewer blocks than programs
  uint64_t tma_maps_encoded = 0;       ///< tensor maps the driver encoded
  uint64_t tma_map_reuses = 0;         ///< tensor maps copied from the ones a thread encoded last
  uint64_t occupancy_steps = 0;        ///< specializations compiled again for one more block
                                       ///< per SM, and kept (TILEC_OCCUPANCY_STEP)
};
RuntimeStats runtime_stats();

/// Forget every compiled specialization and autotuning choice held in memory (the disk cache
/// stays). For tests and for timing cold versus warm starts.
void clear_memory_cache();

} // namespace tilec
