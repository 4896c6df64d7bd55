// bench_util.cpp - see bench_util.h.
#include "bench_util.h"

#include <tilec/runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace bench {

namespace {
std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}
} // namespace

void emit(const Row &row) {
  std::printf("{\"name\": %s, \"provider\": %s, \"ms\": %.6g, \"unit\": %s, \"value\": %.6g, "
              "\"note\": %s}\n",
              quoted(row.name).c_str(), quoted(row.provider).c_str(), row.ms,
              quoted(row.unit).c_str(), row.value, quoted(row.note).c_str());
  std::fflush(stdout);
}

double median(std::vector<double> samples) {
  if (samples.empty())
    return 0;
  auto mid = samples.begin() + samples.size() / 2;
  std::nth_element(samples.begin(), mid, samples.end());
  return *mid;
}

double now_s() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

size_t buffer_sets(size_t bytes) {
  int l2 = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  return bytes < 2 * size_t(l2) ? (4 * size_t(l2) + bytes - 1) / bytes : 1;
}

double median_ms(const std::function<void(int)> &run, cudaStream_t s, int warmup, int reps,
                 const std::function<void()> &before) {
  int i = 0;
  for (; i < warmup; ++i) {
    if (before)
      before();
    run(i);
  }
  std::vector<cudaEvent_t> ev(2 * reps);
  for (cudaEvent_t &e : ev)
    CHECK_CUDA(cudaEventCreate(&e));
  for (int r = 0; r < reps; ++r, ++i) {
    if (before)
      before();
    CHECK_CUDA(cudaEventRecord(ev[2 * r], s));
    run(i);
    CHECK_CUDA(cudaEventRecord(ev[2 * r + 1], s));
  }
  CHECK_CUDA(cudaStreamSynchronize(s));
  std::vector<double> ms(reps);
  for (int r = 0; r < reps; ++r) {
    float t = 0;
    CHECK_CUDA(cudaEventElapsedTime(&t, ev[2 * r], ev[2 * r + 1]));
    ms[r] = t;
  }
  for (cudaEvent_t e : ev)
    CHECK_CUDA(cudaEventDestroy(e));
  return median(ms);
}

L2Flush::L2Flush() { CHECK_CUDA(cudaMalloc(&buffer_, kBytes)); }

L2Flush::~L2Flush() { cudaFree(buffer_); }

void L2Flush::operator()(cudaStream_t s) const {
  CHECK_CUDA(cudaMemsetAsync(buffer_, 0, kBytes, s));
}

double median_ms_flushed(const std::function<void(int)> &run, cudaStream_t s, int warmup,
                         int reps) {
  static const L2Flush flush; // one buffer for the program's timings
  return median_ms(run, s, warmup, reps, [&] { flush(s); });
}

int run_on_gpu(const char *name, const std::function<void(cudaStream_t)> &body) {
  try {
    std::string why;
    if (!tilec::gpu_available(&why)) {
      std::fprintf(stderr, "SKIPPED: no GPU (%s)\n", why.c_str());
      return 77;
    }
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    body(s);
    CHECK_CUDA(cudaStreamDestroy(s));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 1;
  }
  return 0;
}

} // namespace bench
