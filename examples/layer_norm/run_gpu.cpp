// run_gpu.cpp - layer norm through the typed launchers that tilec generated. Every CUDA
// runtime call is checked; the launches themselves report errors as tilec::Error.
#include "layer_norm.tilec.h"
#include "runners.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess)                                                                       \
      throw std::runtime_error(std::string(#call) + " failed: " + cudaGetErrorString(err_) +       \
                               " (" __FILE__ ":" + std::to_string(__LINE__) + ")");                \
  } while (0)

namespace example {
namespace {

// Owns one device allocation; optionally filled from the host or poisoned (0xFF bytes).
template <class T> struct DeviceBuffer {
  T *ptr = nullptr;
  size_t count;
  explicit DeviceBuffer(size_t n) : count(n) {
    CHECK_CUDA(cudaMalloc(&ptr, std::max<size_t>(n, 1) * sizeof(T)));
  }
  DeviceBuffer(const T *host, size_t n) : DeviceBuffer(n) {
    CHECK_CUDA(cudaMemcpy(ptr, host, n * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  void poison() { CHECK_CUDA(cudaMemset(ptr, 0xFF, count * sizeof(T))); }
  void copy_to(T *host) const {
    CHECK_CUDA(cudaMemcpy(host, ptr, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
};

template <int B = 32, class F> void with_block(int block, F f) {
  if constexpr (B > kMaxBlock)
    throw std::invalid_argument("layer_norm: unsupported BLOCK");
  else if (block == B)
    f(std::integral_constant<int, B>{});
  else
    with_block<B * 2>(block, f);
}

void sync() {
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
}

} // namespace

void forward_on_gpu(const Problem &p, const Config &c) {
  size_t n = size_t(p.rows) * p.cols;
  DeviceBuffer<tl::half> x(p.x, n), w(p.w, p.cols), b(p.b, p.cols), y(n);
  DeviceBuffer<float> mean(p.rows), rstd(p.rows);
  y.poison();
  mean.poison();
  rstd.poison();
  with_block(c.fwd_block, [&](auto blk) {
    constexpr int B = decltype(blk)::value;
    if (p.cols <= B)
      layer_norm_fwd<B>(tilec::Grid{(uint32_t)p.rows}, nullptr, x.ptr, y.ptr, w.ptr, b.ptr,
                        mean.ptr, rstd.ptr, p.cols, p.cols, p.eps, {.num_warps = warps_for(B)});
    else
      layer_norm_fwd_wide<B>(tilec::Grid{(uint32_t)p.rows}, nullptr, x.ptr, y.ptr, w.ptr, b.ptr,
                             mean.ptr, rstd.ptr, p.cols, p.cols, p.eps,
                             {.num_warps = warps_for(B)});
  });
  sync();
  y.copy_to(p.y);
  mean.copy_to(p.mean);
  rstd.copy_to(p.rstd);
}

void backward_on_gpu(const Problem &p, const Config &c) {
  size_t n = size_t(p.rows) * p.cols;
  DeviceBuffer<tl::half> x(p.x, n), dy(p.dy, n), w(p.w, p.cols), dx(n), dw(p.cols), db(p.cols);
  DeviceBuffer<float> mean(p.mean, p.rows), rstd(p.rstd, p.rows);
  DeviceBuffer<float> dw_part(size_t(c.groups) * p.cols), db_part(size_t(c.groups) * p.cols);
  dx.poison();
  dw.poison();
  db.poison();
  with_block(c.bwd_block, [&](auto blk) {
    constexpr int B = decltype(blk)::value;
    layer_norm_bwd_dx<B>(tilec::Grid{(uint32_t)c.groups}, nullptr, dx.ptr, dy.ptr, dw_part.ptr,
                         db_part.ptr, x.ptr, w.ptr, mean.ptr, rstd.ptr, p.cols, p.rows, p.cols,
                         {.num_warps = warps_for(B)});
  });
  layer_norm_bwd_dwdb<kDwdbBlock>(tilec::Grid{(uint32_t)tilec::cdiv(p.cols, kDwdbBlock)}, nullptr,
                                  dw_part.ptr, db_part.ptr, dw.ptr, db.ptr, c.groups, p.cols,
                                  {.num_warps = kDwdbWarps});
  sync();
  dx.copy_to(p.dx);
  dw.copy_to(p.dw);
  db.copy_to(p.db);
}

} // namespace example
