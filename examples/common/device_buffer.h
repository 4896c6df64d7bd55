// device_buffer.h - what the examples' run_gpu.cpp files share: one checked way to call the
// CUDA runtime, and an owned device array that the checks upload, poison and read back.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>

// Throws std::runtime_error naming the call and the place when a CUDA runtime call fails, so
// that an example's driver prints it as a failure instead of checking garbage.
#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess)                                                                       \
      throw std::runtime_error(std::string(#call) + " failed: " + cudaGetErrorString(err_) +       \
                               " (" __FILE__ ":" + std::to_string(__LINE__) + ")");                \
  } while (0)

namespace example {

/// Owns `size()` elements of device memory. The allocation holds exactly that many (one for
/// an empty buffer), so a memory checker sees any read or write past the end.
template <class T> class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t count) : count_(count) {
    CHECK_CUDA(cudaMalloc(&ptr_, std::max<size_t>(count, 1) * sizeof(T)));
  }
  /// Uploads host[0..count).
  DeviceBuffer(const T *host, size_t count) : DeviceBuffer(count) {
    CHECK_CUDA(cudaMemcpy(ptr_, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  T *data() const { return ptr_; }
  size_t size() const { return count_; }

  /// Fills every byte with 0xFF (NaN for floats), so elements a kernel misses stay visible.
  void poison() { CHECK_CUDA(cudaMemset(ptr_, 0xFF, count_ * sizeof(T))); }
  void zero() { CHECK_CUDA(cudaMemset(ptr_, 0, count_ * sizeof(T))); }
  /// Downloads all size() elements into host.
  void copy_to(T *host) const {
    CHECK_CUDA(cudaMemcpy(host, ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
  }

private:
  T *ptr_ = nullptr;
  size_t count_;
};

/// Waits for the device and throws on any launch or execution error.
void sync_device();

/// Median time of `launch` (ms) over ten timed runs after one untimed warm-up (which also
/// compiles an NVRTC kernel), for the bandwidth the examples print.
double median_launch_ms(const std::function<void()> &launch);

} // namespace example
