// tilec/autotune.h - the autotuner behind the `<kernel>_autotuned` launchers that the
// translator writes for TILEC_AUTOTUNE declarations (docs/autotuning.md).
//
// The first launch for a new value of the tuning key (the specialization plus the key
// arguments) compiles the configs in parallel, times each on the GPU with CUDA events and keeps
// the fastest, in memory and on disk (TILEC_CACHE_DIR). TILEC_PRINT_AUTOTUNING=1 prints what was
// tried. A config that fails to compile or launch is skipped with a message.
#pragma once

#include <tilec/runtime.h>

#include <algorithm> // for hooks copied into launcher headers
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tilec {

/// One config (Triton's triton.Config): values of some template parameters, plus num_warps and
/// num_stages. Names must outlive the config (string literals). Fixed capacity, so that a launch
/// copies one without allocating.
class Config {
public:
  static constexpr int kMax = 16;
  int num_warps = 4;
  int num_stages = 3;

  Config() = default;
  Config(std::initializer_list<std::pair<const char *, int64_t>> values, int num_warps = 4,
         int num_stages = 3);

  /// Adds `name` or replaces its value.
  void set(const char *name, int64_t value);
  bool has(const char *name) const { return find(name) >= 0; }
  /// The value of `name`; throws tilec::Error when the config has none.
  int64_t get(const char *name) const;
  int64_t operator[](const char *name) const { return get(name); }

  int size() const { return n_; }
  const char *name(int i) const { return names_[i]; }
  int64_t value(int i) const { return values_[i]; }

  /// "BLOCK_M=128, BLOCK_N=64, num_warps=4, num_stages=3".
  std::string str() const;

private:
  int find(const char *name) const {
    for (int i = 0; i < n_; ++i)
      if (std::strcmp(names_[i], name) == 0)
        return i;
    return -1;
  }
  const char *names_[kMax] = {};
  int64_t values_[kMax] = {};
  int n_ = 0;
};

/// The grid of an autotuned launch: a tilec::Grid, or a function of the chosen Config that
/// returns a Grid or a number of programs (Triton's `grid = lambda META: ...`). It refers to the
/// function it was made from, so build it in the call.
class GridFn {
public:
  GridFn(Grid g) : grid_(g) {}
  template <class F, class = std::enable_if_t<std::is_invocable_v<const F &, const Config &>>>
  GridFn(const F &f) : fn_(&f), call_(&call<F>) {}
  Grid operator()(const Config &c) const { return call_ ? call_(fn_, c) : grid_; }

private:
  template <class F> static Grid call(const void *f, const Config &c) {
    auto g = (*static_cast<const F *>(f))(c);
    if constexpr (std::is_integral_v<decltype(g)>)
      return Grid{uint32_t(g)};
    else
      return g;
  }
  Grid grid_;
  const void *fn_ = nullptr;
  Grid (*call_)(const void *, const Config &) = nullptr;
};

/// A buffer the kernel writes in place: zeroed (reset_to_zero) or restored to its contents
/// before tuning (restore_value) before each timed run and before the launch that follows.
struct TunedBuffer {
  void *ptr = nullptr;
  size_t bytes = 0;
  bool zero = true; ///< false: restore
};

/// How one tuning tries configs; an autotuned launcher fills it in when it meets a new key.
struct Tuning {
  Stream stream = nullptr;
  std::function<Config(const Config &)> complete; ///< adds the heuristics' values
  std::function<bool(const Config &)> keep;       ///< the prune hook; empty keeps every config
  std::function<void(const Config &)> compile;    ///< may run on several threads at once
  std::function<void(const Config &)> launch;     ///< one launch on `stream`
  std::vector<TunedBuffer> buffers;
};

/// What the autotuner declared for one kernel, as the translator writes it out.
struct TuningSpec {
  const char *kernel = "";
  std::vector<Config> configs; ///< what the declaration lists (one default config if none)
  /// Names of the tuning key's values: the specialization (template parameters not tuned,
  /// DIV16) then the key arguments; `key_kinds` has a letter per name: 't' an element type
  /// (type_id), 'b' a bool, 'i' an integer, 'f' a floating-point argument (key_value), 'm' the
  /// DIV16 mask.
  std::vector<const char *> key_names;
  std::string key_kinds;
  double warmup_ms = 25, rep_ms = 100;
};

/// What the device does for the autotuner; the GPU implementation uses CUDA events and the
/// driver's memory functions. Tests inject a fake (Autotuner::set_backend).
class TuneBackend {
public:
  virtual ~TuneBackend() = default;
  /// The GPU and driver (part of the disk key): "NVIDIA H200, sm_90a, 132 SMs, driver 13000".
  virtual std::string device_id() = 0;
  /// Which device context launches run in now: choices are kept per context in memory, so a
  /// process that drives several GPUs tunes (or reads from disk) for each one it launches on.
  virtual int64_t device_token() { return 0; }
  /// Median milliseconds of one `launch()`, timed for about `rep_ms` after about `warmup_ms`
  /// of warm-up; `prepare()` runs before every launch, untimed.
  virtual double time_ms(Stream stream, const std::function<void()> &prepare,
                         const std::function<void()> &launch, double warmup_ms, double rep_ms) = 0;
  virtual void zero(Stream stream, void *ptr, size_t bytes) = 0;
  /// A copy of `bytes` at `ptr`, for restore(); release() frees it after `stream` is idle.
  virtual void *save(Stream stream, const void *ptr, size_t bytes) = 0;
  virtual void restore(Stream stream, void *ptr, const void *copy, size_t bytes) = 0;
  virtual void release(Stream stream, void *copy) = 0;
};

/// The backend that times on the GPU this process uses.
TuneBackend &gpu_tune_backend();

/// A key argument as a tuning key value: integers as they are, floating point by its bits.
template <class T> int64_t key_value(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    double d = double(v);
    int64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
  } else {
    return int64_t(v);
  }
}

/// The autotuner of one kernel (one per autotuned launcher, a function-local static).
/// Thread-safe; tunings of one kernel run one at a time.
class Autotuner {
public:
  Autotuner(const Source &source, TuningSpec spec);
  ~Autotuner();
  Autotuner(const Autotuner &) = delete;
  Autotuner &operator=(const Autotuner &) = delete;

  /// The config chosen for `key`, or nullptr when it has not been tuned in this process.
  const Config *find(const SpecKey &key) const;
  /// Chooses a config for `key`: from the disk cache, else by timing the configs `how` keeps.
  /// Throws tilec::Error when no config can run.
  const Config &tune(const SpecKey &key, const Tuning &how);

  /// For tests: the device backend (default gpu_tune_backend()) and where messages go
  /// (default: a line each on stderr).
  void set_backend(TuneBackend *backend);
  void set_log(std::function<void(const std::string &)> sink);

  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace tilec
