// run_interpreter.cpp - the same kernel source compiled for the host and run by the
// interpreter, one program instance at a time, on host pointers.
#include "runners.h"

#include <tilec/interpret.h>

#include "layer_norm.cpp"

#include <cstring>
#include <stdexcept>
#include <vector>

namespace example {
namespace {

void poison(void *p, size_t bytes) { std::memset(p, 0xFF, bytes); }

// Calls f(std::integral_constant<int, B>) for the B in {32, 64, ..., kMaxBlock} equal to block.
template <int B = 32, class F> void with_block(int block, F f) {
  if constexpr (B > kMaxBlock)
    throw std::invalid_argument("layer_norm: unsupported BLOCK");
  else if (block == B)
    f(std::integral_constant<int, B>{});
  else
    with_block<B * 2>(block, f);
}

} // namespace

void forward_in_interpreter(const Problem &p, const Config &c) {
  size_t n = size_t(p.rows) * p.cols;
  poison(p.y, n * sizeof(tl::half));
  poison(p.mean, p.rows * sizeof(float));
  poison(p.rstd, p.rows * sizeof(float));
  with_block(c.fwd_block, [&](auto b) {
    constexpr int B = decltype(b)::value;
    auto kernel = p.cols <= B ? layer_norm_fwd<B> : layer_norm_fwd_wide<B>;
    tilec::interpret::launch(kernel, tilec::Grid{(uint32_t)p.rows}, p.x, p.y, p.w, p.b, p.mean,
                             p.rstd, p.cols, p.cols, p.eps);
  });
}

void backward_in_interpreter(const Problem &p, const Config &c) {
  size_t n = size_t(p.rows) * p.cols;
  poison(p.dx, n * sizeof(tl::half));
  poison(p.dw, p.cols * sizeof(tl::half));
  poison(p.db, p.cols * sizeof(tl::half));
  std::vector<float> dw_part(size_t(c.groups) * p.cols), db_part(dw_part.size());
  with_block(c.bwd_block, [&](auto b) {
    tilec::interpret::launch(layer_norm_bwd_dx<decltype(b)::value>, tilec::Grid{(uint32_t)c.groups},
                             p.dx, p.dy, dw_part.data(), db_part.data(), p.x, p.w, p.mean, p.rstd,
                             p.cols, p.rows, p.cols);
  });
  tilec::interpret::launch(layer_norm_bwd_dwdb<kDwdbBlock>,
                           tilec::Grid{(uint32_t)tilec::cdiv(p.cols, kDwdbBlock)}, dw_part.data(),
                           db_part.data(), p.dw, p.db, c.groups, p.cols);
}

} // namespace example
