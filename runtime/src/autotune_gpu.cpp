// The autotuner's GPU backend: timing with CUDA events (Triton's do_bench: a short estimate
// sizes the warm-up and the repetitions; the median of per-launch event pairs is the time) and
// the buffers of in-place outputs, all on the caller's stream through the driver API.
#include "driver_api.h"

#include <tilec/autotune.h>

#include <algorithm>
#include <vector>

namespace tilec {
namespace {

constexpr int kEstimateRuns = 5;
constexpr int kMinReps = 3;    // a median of fewer says little
constexpr int kMaxRuns = 1000; // bounds the time spent on very short kernels

// Events created for one measurement, destroyed on every path.
struct Events {
  const detail::Driver &d;
  std::vector<CUevent> all;
  CUevent make() {
    CUevent e = nullptr;
    detail::check(d.api.event_create(&e, CU_EVENT_DEFAULT), "creating a CUDA event");
    all.push_back(e);
    return e;
  }
  ~Events() {
    for (CUevent e : all)
      d.api.event_destroy(e);
  }
};

float elapsed_ms(const detail::Driver &d, CUevent from, CUevent to) {
  float ms = 0;
  detail::check(d.api.event_elapsed_time(&ms, from, to), "reading a CUDA event's time");
  return ms;
}

class GpuBackend final : public TuneBackend {
public:
  // The device of the calling thread's context. The SM count tells MIG slices of one GPU
  // model apart (and GPUs sold under one name with different SM counts).
  std::string device_id() override {
    const detail::Driver &d = detail::driver();
    const detail::DeviceContext &here = detail::current_device_context(d);
    int version = 0;
    detail::check(d.api.driver_get_version(&version), "cuDriverGetVersion");
    return here.name + ", " + here.arch + ", " + std::to_string(here.sm_count) + " SMs, driver " +
           std::to_string(version);
  }

  int64_t device_token() override {
    return int64_t(reinterpret_cast<intptr_t>(
        &detail::current_device_context(detail::driver())));
  }

  double time_ms(Stream stream, const std::function<void()> &prepare,
                 const std::function<void()> &launch, double warmup_ms, double rep_ms) override {
    const detail::Driver &d = detail::driver();
    detail::ensure_context(d);
    CUstream s = static_cast<CUstream>(stream);
    Events ev{d, {}};
    // A first run pays for one-time work (module load, shared-memory opt-in) untimed.
    prepare();
    launch();
    detail::check(d.api.stream_synchronize(s), "waiting for the first autotuning run");
    CUevent e0 = ev.make(), e1 = ev.make();
    detail::check(d.api.event_record(e0, s), "recording a CUDA event");
    for (int i = 0; i < kEstimateRuns; ++i) {
      prepare();
      launch();
    }
    detail::check(d.api.event_record(e1, s), "recording a CUDA event");
    detail::check(d.api.event_synchronize(e1), "waiting for a CUDA event");
    const double estimate = std::max(1e-4, double(elapsed_ms(d, e0, e1)) / kEstimateRuns);
    const int warmup = std::clamp(int(warmup_ms / estimate), 1, kMaxRuns);
    const int reps = std::clamp(int(rep_ms / estimate), kMinReps, kMaxRuns);
    for (int i = 0; i < warmup; ++i) {
      prepare();
      launch();
    }
    std::vector<CUevent> starts, ends;
    for (int i = 0; i < reps; ++i) {
      starts.push_back(ev.make());
      ends.push_back(ev.make());
    }
    for (int i = 0; i < reps; ++i) {
      prepare(); // before the start event: not timed
      detail::check(d.api.event_record(starts[size_t(i)], s), "recording a CUDA event");
      launch();
      detail::check(d.api.event_record(ends[size_t(i)], s), "recording a CUDA event");
    }
    detail::check(d.api.event_synchronize(ends.back()), "waiting for the timed runs");
    std::vector<double> ms;
    for (int i = 0; i < reps; ++i)
      ms.push_back(elapsed_ms(d, starts[size_t(i)], ends[size_t(i)]));
    std::nth_element(ms.begin(), ms.begin() + reps / 2, ms.end());
    return ms[size_t(reps / 2)];
  }

  void zero(Stream stream, void *ptr, size_t bytes) override {
    const detail::Driver &d = detail::driver();
    detail::check(d.api.memset_d8_async(CUdeviceptr(ptr), 0, bytes, static_cast<CUstream>(stream)),
                  "zeroing a reset_to_zero buffer");
  }

  void *save(Stream stream, const void *ptr, size_t bytes) override {
    const detail::Driver &d = detail::driver();
    detail::ensure_context(d);
    CUdeviceptr copy = 0;
    detail::check(d.api.mem_alloc(&copy, bytes),
                  "allocating " + std::to_string(bytes) + " bytes for a restore_value copy");
    CUresult r =
        d.api.memcpy_dtod_async(copy, CUdeviceptr(ptr), bytes, static_cast<CUstream>(stream));
    if (r != CUDA_SUCCESS) {
      d.api.mem_free(copy);
      detail::check(r, "saving a restore_value buffer");
    }
    return reinterpret_cast<void *>(copy);
  }

  void restore(Stream stream, void *ptr, const void *copy, size_t bytes) override {
    const detail::Driver &d = detail::driver();
    detail::check(d.api.memcpy_dtod_async(CUdeviceptr(ptr), CUdeviceptr(copy), bytes,
                                          static_cast<CUstream>(stream)),
                  "restoring a restore_value buffer");
  }

  void release(Stream stream, void *copy) override {
    // Called while unwinding too: errors are ignored (the copy leaks at worst).
    const detail::Driver &d = detail::driver();
    if (d.api.stream_synchronize(static_cast<CUstream>(stream)) == CUDA_SUCCESS)
      d.api.mem_free(CUdeviceptr(copy));
  }
};

} // namespace

TuneBackend &gpu_tune_backend() {
  static GpuBackend *b = new GpuBackend; // never destroyed: usable from static destructors
  return *b;
}

} // namespace tilec
