// corpus_bench_util.h - what the benchmarks of the ported kernels (bench_corpus.cpp,
// bench_ports.cpp) share: device buffers of uniform values, the SM count, inputs put back
// before every launch, and one timed JSON row per call.
#pragma once

#include "bench_util.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace corpus_bench {

/// Device memory of n elements, uniform in [lo, hi) from a fixed stream, or a copy of a host
/// vector.
template <class T> struct Dev {
  T *p = nullptr;
  explicit Dev(size_t n, float lo = -1, float hi = 1, uint64_t seed = 1) {
    std::vector<T> host(n);
    uint64_t s = seed * 0x9e3779b97f4a7c15ull;
    for (T &v : host) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      v = T(lo + (hi - lo) * float(s >> 40) / 16777216.0f);
    }
    upload(host);
  }
  explicit Dev(const std::vector<T> &host) { upload(host); }
  Dev(const Dev &) = delete;
  Dev &operator=(const Dev &) = delete;
  ~Dev() { cudaFree(p); }

private:
  void upload(const std::vector<T> &host) {
    CHECK_CUDA(cudaMalloc(&p, host.size() * sizeof(T)));
    CHECK_CUDA(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
};

inline int sm_count() {
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return sms;
}

/// Inputs that a kernel writes over (a backward pass's gradients in place, cross-entropy's
/// logits), put back before every launch: timed on its own output, such a kernel would see
/// values that shrink towards zero launch after launch (a geglu's tanh then takes one branch
/// in every warp), not the data it is meant for. Each restore copies from a pristine copy,
/// then writes 256 MB elsewhere so that no input is left in L2, as Triton's do_bench does
/// before each of its launches (with no buffers, only that write).
class Restore {
public:
  Restore(cudaStream_t s, std::initializer_list<std::pair<void *, size_t>> buffers) : s_(s) {
    for (auto [p, bytes] : buffers) {
      void *copy = nullptr;
      CHECK_CUDA(cudaMalloc(&copy, bytes));
      CHECK_CUDA(cudaMemcpy(copy, p, bytes, cudaMemcpyDeviceToDevice));
      saved_.push_back({p, copy, bytes});
    }
  }
  Restore(const Restore &) = delete;
  Restore &operator=(const Restore &) = delete;
  ~Restore() {
    for (const Saved &b : saved_)
      cudaFree(b.copy);
  }
  void operator()() const {
    for (const Saved &b : saved_)
      CHECK_CUDA(cudaMemcpyAsync(b.p, b.copy, b.bytes, cudaMemcpyDeviceToDevice, s_));
    flush_(s_);
  }

private:
  struct Saved {
    void *p, *copy;
    size_t bytes;
  };
  cudaStream_t s_;
  std::vector<Saved> saved_;
  bench::L2Flush flush_;
};

/// Rows named "<prefix> <name>" by provider tilec, in GB/s of `bytes`.
struct Reporter {
  std::string prefix;

  /// Times run() and prints the row; `restore`, when given, runs before every launch, untimed.
  void operator()(const std::string &name, double bytes, const std::string &note, cudaStream_t s,
                  const std::function<void()> &run, const Restore *restore = nullptr) const {
    double ms = restore ? bench::median_ms([&](int) { run(); }, s, 10, 50, [&] { (*restore)(); })
                        : bench::median_ms([&](int) { run(); }, s);
    bench::emit({prefix + " " + name, "tilec", ms, "GB/s", bytes / (ms * 1e6), note});
  }
};

} // namespace corpus_bench
