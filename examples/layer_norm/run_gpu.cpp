// run_gpu.cpp - layer norm through the typed launchers that tilec generated. Every CUDA
// runtime call is checked; the launches themselves report errors as tilec::Error.
#include "layer_norm.tilec.h"
#include "runners.h"

#include "block_dispatch.h"
#include "device_buffer.h"

#include <stdexcept>

namespace example {

void forward_on_gpu(const Problem &p, const Config &c) {
  size_t n = size_t(p.rows) * p.cols;
  DeviceBuffer<tl::half> x(p.x, n), w(p.w, p.cols), b(p.b, p.cols), y(n);
  DeviceBuffer<float> mean(p.rows), rstd(p.rows);
  y.poison();
  mean.poison();
  rstd.poison();
  with_block<kMaxBlock>(c.fwd_block, kBadBlock, [&](auto blk) {
    constexpr int B = decltype(blk)::value;
    if (p.cols <= B) // the row in one tile: BLOCK and num_warps from TILEC_AUTOTUNE
      layer_norm_fwd_autotuned(tilec::Grid{(uint32_t)p.rows}, nullptr, x.data(), y.data(), w.data(),
                               b.data(), mean.data(), rstd.data(), p.cols, p.cols, p.eps);
    else
      layer_norm_fwd_wide<B>(tilec::Grid{(uint32_t)p.rows}, nullptr, x.data(), y.data(), w.data(),
                             b.data(), mean.data(), rstd.data(), p.cols, p.cols, p.eps,
                             {.num_warps = warps_for(B)});
  });
  sync_device();
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
  if (c.bwd_block != block_for(p.cols) || c.bwd_block > kMaxBlock)
    throw std::invalid_argument(kBadBlock);
  // BLOCK (the row in one tile) and num_warps from TILEC_AUTOTUNE.
  layer_norm_bwd_dx_autotuned(tilec::Grid{(uint32_t)c.groups}, nullptr, dx.data(), dy.data(),
                              dw_part.data(), db_part.data(), x.data(), w.data(), mean.data(),
                              rstd.data(), p.cols, p.rows, p.cols);
  layer_norm_bwd_dwdb<kDwdbBlock>(tilec::Grid{(uint32_t)tilec::cdiv(p.cols, kDwdbBlock)}, nullptr,
                                  dw_part.data(), db_part.data(), dw.data(), db.data(), c.groups,
                                  p.cols, {.num_warps = kDwdbWarps});
  sync_device();
  dx.copy_to(p.dx);
  dw.copy_to(p.dw);
  db.copy_to(p.db);
}

} // namespace example
