// run_interpreter.cpp - the same kernel source compiled for the host and run by the
// interpreter, one program instance at a time, on host pointers.
#include "runners.h"

#include <tilec/interpret.h>

#include "layer_norm.cpp"

#include "block_dispatch.h"
#include "host_check.h"

#include <vector>

namespace example {

void forward_in_interpreter(const Problem &p, const Config &c) {
  size_t n = size_t(p.rows) * p.cols;
  poison_host(p.y, n * sizeof(tl::half));
  poison_host(p.mean, p.rows * sizeof(float));
  poison_host(p.rstd, p.rows * sizeof(float));
  with_block<kMaxBlock>(c.fwd_block, kBadBlock, [&](auto b) {
    constexpr int B = decltype(b)::value;
    auto kernel = p.cols <= B ? layer_norm_fwd<B> : layer_norm_fwd_wide<B>;
    tilec::interpret::launch(kernel, tilec::Grid{(uint32_t)p.rows}, p.x, p.y, p.w, p.b, p.mean,
                             p.rstd, p.cols, p.cols, p.eps);
  });
}

void backward_in_interpreter(const Problem &p, const Config &c) {
  size_t n = size_t(p.rows) * p.cols;
  poison_host(p.dx, n * sizeof(tl::half));
  poison_host(p.dw, p.cols * sizeof(tl::half));
  poison_host(p.db, p.cols * sizeof(tl::half));
  std::vector<float> dw_part(size_t(c.groups) * p.cols), db_part(dw_part.size());
  with_block<kMaxBlock>(c.bwd_block, kBadBlock, [&](auto b) {
    tilec::interpret::launch(layer_norm_bwd_dx<decltype(b)::value>, tilec::Grid{(uint32_t)c.groups},
                             p.dx, p.dy, dw_part.data(), db_part.data(), p.x, p.w, p.mean, p.rstd,
                             p.cols, p.rows, p.cols);
  });
  tilec::interpret::launch(layer_norm_bwd_dwdb<kDwdbBlock>,
                           tilec::Grid{(uint32_t)tilec::cdiv(p.cols, kDwdbBlock)}, dw_part.data(),
                           db_part.data(), p.dw, p.db, c.groups, p.cols);
}

} // namespace example
