// device_buffer.h - just enough device memory for GPU tests, through the runtime's
// dlopen'ed driver (tilec_runtime exposes no allocator, and tests must not link libcuda).
#pragma once

#include "driver_api.h"

#include <cstddef>
#include <vector>

namespace tilec_test {

/// Owns `bytes` of device memory in the runtime's (primary) context.
class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  template <class T> T *as() const { return reinterpret_cast<T *>(ptr_); }
  size_t size() const { return bytes_; }

  /// Sets every byte (0xff makes floats NaN: poison before a kernel writes).
  void fill(unsigned char byte);
  template <class T> void upload(const std::vector<T> &host) {
    upload_bytes(host.data(), host.size() * sizeof(T));
  }
  template <class T> std::vector<T> download() const {
    std::vector<T> host(bytes_ / sizeof(T));
    download_bytes(host.data(), host.size() * sizeof(T));
    return host;
  }

private:
  void upload_bytes(const void *src, size_t n);
  void download_bytes(void *dst, size_t n) const;
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

/// Waits for all work on the device (cuCtxSynchronize); throws tilec::Error on failure.
void synchronize();

} // namespace tilec_test
