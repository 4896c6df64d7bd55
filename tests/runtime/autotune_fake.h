// autotune_fake.h - a TuneBackend on host memory for the autotuner's tests: a launch's "time"
// is whatever the test's launch function put in `next_ms`, and buffers are host buffers.
#pragma once

#include <tilec/autotune.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

namespace tilec_test {

class FakeBackend : public tilec::TuneBackend {
public:
  std::string device = "Fake GPU, sm_90a, driver 13000";
  double next_ms = 0; ///< set by the launch being timed
  int timings = 0;    ///< calls of time_ms
  int launches = 0;   ///< launches inside time_ms
  bool forbid_timing = false;
  int64_t context = 0; ///< the device context launches run in now

  std::string device_id() override { return device; }
  int64_t device_token() override { return context; }
  double time_ms(tilec::Stream, const std::function<void()> &prepare,
                 const std::function<void()> &launch, double, double) override {
    if (forbid_timing)
      throw std::logic_error("this test expects no timing");
    ++timings;
    for (int i = 0; i < 3; ++i) { // a few runs, as the GPU backend makes
      prepare();
      launch();
      ++launches;
    }
    return next_ms;
  }
  void zero(tilec::Stream, void *ptr, size_t bytes) override { std::memset(ptr, 0, bytes); }
  void *save(tilec::Stream, const void *ptr, size_t bytes) override {
    void *copy = std::malloc(bytes);
    std::memcpy(copy, ptr, bytes);
    ++saved;
    return copy;
  }
  void restore(tilec::Stream, void *ptr, const void *copy, size_t bytes) override {
    std::memcpy(ptr, copy, bytes);
  }
  void release(tilec::Stream, void *copy) override {
    std::free(copy);
    ++released;
  }
  int saved = 0, released = 0;
};

} // namespace tilec_test
