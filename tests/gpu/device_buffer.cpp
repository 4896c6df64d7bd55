#include "device_buffer.h"

using tilec::detail::check;
using tilec::detail::driver;
using tilec::detail::ensure_context;

namespace tilec_test {

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  ensure_context(driver());
  check(driver().api.mem_alloc(&ptr_, bytes), "cuMemAlloc");
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_)
    driver().api.mem_free(ptr_);
}

void DeviceBuffer::fill(unsigned char byte) {
  check(driver().api.memset_d8(ptr_, byte, bytes_), "cuMemsetD8");
}

void DeviceBuffer::upload_bytes(const void *src, size_t n) {
  check(driver().api.memcpy_htod(ptr_, src, n), "cuMemcpyHtoD");
}

void DeviceBuffer::download_bytes(void *dst, size_t n) const {
  check(driver().api.memcpy_dtoh(dst, ptr_, n), "cuMemcpyDtoH");
}

void synchronize() {
  ensure_context(driver());
  check(driver().api.ctx_synchronize(), "cuCtxSynchronize");
}

} // namespace tilec_test
