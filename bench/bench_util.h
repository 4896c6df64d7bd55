// bench_util.h - timing helpers and the JSON-lines output shared by the benchmarks.
// One row per line: {"name", "provider", "ms", "unit", "value", "note"}, the schema
// bench/triton_torch.py writes too, so bench/report.py can merge them.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess)                                                                       \
      throw std::runtime_error(std::string(#call) + " failed: " + cudaGetErrorString(err_));       \
  } while (0)

namespace bench {

struct Row {
  std::string name;
  std::string provider = "tilec";
  double ms = 0;
  std::string unit;
  double value = 0;
  std::string note;
};

/// Prints `row` as one JSON object on its own line and flushes.
void emit(const Row &row);

/// Median of `samples` (reorders them).
double median(std::vector<double> samples);

/// Seconds on a monotonic clock.
double now_s();

/// How many copies of a problem that moves `bytes` to rotate through so that it is not
/// served from L2 (1 when it is well above the L2 size).
size_t buffer_sets(size_t bytes);

/// Median of `reps` cudaEvent timings (ms) of run(i) on stream `s`, after `warmup` calls;
/// i counts up from 0 across all calls (for rotating buffers). `before`, when given, is
/// enqueued ahead of every call outside the timed span (restoring the inputs of a kernel
/// that writes over them).
double median_ms(const std::function<void(int)> &run, cudaStream_t s, int warmup = 10,
                 int reps = 50, const std::function<void()> &before = {});

/// 256 MB written on a stream, so that no input of the next launch is left in L2: what
/// Triton's do_bench enqueues before each of its timed launches.
class L2Flush {
public:
  L2Flush();
  L2Flush(const L2Flush &) = delete;
  L2Flush &operator=(const L2Flush &) = delete;
  ~L2Flush();
  void operator()(cudaStream_t s) const;

private:
  static constexpr size_t kBytes = size_t(256) << 20;
  void *buffer_ = nullptr;
};

/// median_ms with an L2Flush before every call, untimed, as Triton's do_bench does: the
/// peers' matmul figures come from do_bench, so tilec's are timed the same way (no input left
/// in L2, and the host's work per launch hidden behind the write).
double median_ms_flushed(const std::function<void(int)> &run, cudaStream_t s, int warmup = 10,
                         int reps = 50);

/// The body of a benchmark's main: exits 77 ("SKIPPED") without a GPU, otherwise runs
/// `body` on a fresh non-blocking stream; any exception is reported under `name` (exit 1).
int run_on_gpu(const char *name, const std::function<void(cudaStream_t)> &body);

} // namespace bench
