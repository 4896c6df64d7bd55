// The operators of the tilec_nn extension: tilec kernels (nn_kernels.cpp) called on tensors
// through their tensor launchers (tilec/torch.h), registered with TORCH_LIBRARY so that
// Python calls them as torch.ops.tilec_nn.<op> and torch.compile sees their shapes (Meta).
#include <tilec/torch.h>

#include "nn_kernels.tilec.h"

#include <ATen/ATen.h>
#include <torch/library.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>

namespace {

constexpr int kMaxRow = 4096; // the widest row a single tile holds here

// Calls f(std::integral_constant<int, BLOCK>{}) with the smallest BLOCK >= n, from 32 on.
template <int BLOCK = 32, class F> void with_block(const char *op, int64_t n, F &&f) {
  if constexpr (BLOCK > kMaxRow) {
    TORCH_CHECK(false, op, ": rows of at most ", std::to_string(kMaxRow), " elements, got ", std::to_string(n));
  } else if (n <= BLOCK) {
    f(std::integral_constant<int, BLOCK>{});
  } else {
    with_block<BLOCK * 2>(op, n, f);
  }
}

// Calls f(T{}) for the tensor's element type, float or double.
template <class F> void with_type(const char *op, const at::Tensor &x, F &&f) {
  if (x.scalar_type() == at::kFloat)
    f(float{});
  else if (x.scalar_type() == at::kDouble)
    f(double{});
  else {
    TORCH_CHECK_TYPE(false, op, ": float32 or float64 tensors, got ", x.scalar_type());
  }
}

// One warp per 256 elements of the row, 1 to 8 warps.
tilec::LaunchOptions row_options(int block) {
  return {.num_warps = std::clamp(block / 256, 1, 8), .num_stages = 1};
}

// The row length and the number of rows of a tensor taken as rows of its last dimension.
std::pair<int64_t, int64_t> rows_of(const char *op, const at::Tensor &x) {
  TORCH_CHECK(x.defined() && x.dim() >= 1, op, ": a tensor of at least one dimension");
  TORCH_CHECK(x.numel() <= std::numeric_limits<int32_t>::max(), op,
              ": at most 2^31 - 1 elements (the kernels index with int), got ", std::to_string(x.numel()));
  int64_t n = x.size(-1);
  return {n, n ? x.numel() / n : 0};
}

at::Tensor op_softmax_fwd(const at::Tensor &x) {
  auto [n, rows] = rows_of("softmax_fwd", x);
  at::Tensor y = at::empty_like(x, at::MemoryFormat::Contiguous);
  if (rows == 0)
    return y;
  with_type("softmax_fwd", x, [&](auto t) {
    using T = decltype(t);
    with_block("softmax_fwd", n, [&](auto block) {
      constexpr int B = decltype(block)::value;
      softmax_fwd<T, B>(tilec::Grid{uint32_t(rows)}, y, x, int(n), row_options(B));
    });
  });
  return y;
}

at::Tensor op_softmax_bwd(const at::Tensor &y, const at::Tensor &dy) {
  auto [n, rows] = rows_of("softmax_bwd", y);
  TORCH_CHECK(dy.sizes() == y.sizes(), "softmax_bwd: dy must have y's sizes ", tilec::torch::shape_text(y.sizes()), ", got ",
              tilec::torch::shape_text(dy.sizes()));
  at::Tensor dx = at::empty_like(y, at::MemoryFormat::Contiguous);
  if (rows == 0)
    return dx;
  with_type("softmax_bwd", y, [&](auto t) {
    using T = decltype(t);
    with_block("softmax_bwd", n, [&](auto block) {
      constexpr int B = decltype(block)::value;
      softmax_bwd<T, B>(tilec::Grid{uint32_t(rows)}, dx, y, dy, int(n), row_options(B));
    });
  });
  return dx;
}

void check_affine(const char *op, const at::Tensor &w, const at::Tensor &b, int64_t n) {
  TORCH_CHECK(w.dim() == 1 && w.size(0) == n, op, ": weight must have shape [", std::to_string(n), "], got ",
              tilec::torch::shape_text(w.sizes()));
  TORCH_CHECK(b.dim() == 1 && b.size(0) == n, op, ": bias must have shape [", std::to_string(n), "], got ",
              tilec::torch::shape_text(b.sizes()));
}

std::tuple<at::Tensor, at::Tensor, at::Tensor>
op_layer_norm_fwd(const at::Tensor &x, const at::Tensor &w, const at::Tensor &b, double eps) {
  auto [n, rows] = rows_of("layer_norm_fwd", x);
  check_affine("layer_norm_fwd", w, b, n);
  at::Tensor y = at::empty_like(x, at::MemoryFormat::Contiguous);
  at::Tensor mean = at::empty({rows}, x.options());
  at::Tensor rstd = at::empty({rows}, x.options());
  if (rows == 0)
    return {y, mean, rstd};
  with_type("layer_norm_fwd", x, [&](auto t) {
    using T = decltype(t);
    with_block("layer_norm_fwd", n, [&](auto block) {
      constexpr int B = decltype(block)::value;
      layer_norm_fwd<T, B>(tilec::Grid{uint32_t(rows)}, y, mean, rstd, x, w, b, int(n), T(eps),
                           row_options(B));
    });
  });
  return {y, mean, rstd};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor>
op_layer_norm_bwd(const at::Tensor &dy, const at::Tensor &x, const at::Tensor &w,
                  const at::Tensor &mean, const at::Tensor &rstd) {
  auto [n, rows] = rows_of("layer_norm_bwd", x);
  TORCH_CHECK(dy.sizes() == x.sizes(), "layer_norm_bwd: dy must have x's sizes ", tilec::torch::shape_text(x.sizes()),
              ", got ", tilec::torch::shape_text(dy.sizes()));
  TORCH_CHECK(mean.numel() == rows && rstd.numel() == rows,
              "layer_norm_bwd: mean and rstd must have one element per row (", std::to_string(rows), ")");
  check_affine("layer_norm_bwd", w, w, n);
  at::Tensor dx = at::empty_like(x, at::MemoryFormat::Contiguous);
  at::Tensor dw = at::empty_like(w, at::MemoryFormat::Contiguous);
  at::Tensor db = at::empty_like(w, at::MemoryFormat::Contiguous);
  if (rows == 0)
    return {dx, dw.zero_(), db.zero_()};
  with_type("layer_norm_bwd", x, [&](auto t) {
    using T = decltype(t);
    with_block("layer_norm_bwd", n, [&](auto block) {
      constexpr int B = decltype(block)::value;
      layer_norm_bwd_dx<T, B>(tilec::Grid{uint32_t(rows)}, dx, dy, x, w, mean, rstd, int(n),
                              row_options(B));
    });
    // 64 columns per program instance: the column sums are short and many.
    constexpr int kCols = 64;
    layer_norm_bwd_dwdb<T, kCols>(tilec::Grid{uint32_t(tilec::cdiv(n, kCols))}, dw, db, dy, x, mean,
                                  rstd, int(rows), int(n), {.num_warps = 2, .num_stages = 1});
  });
  return {dx, dw, db};
}

// Shapes only, for torch.compile's fake tensors.
at::Tensor op_softmax_fwd_meta(const at::Tensor &x) { return at::empty_like(x); }
at::Tensor op_softmax_bwd_meta(const at::Tensor &y, const at::Tensor &) {
  return at::empty_like(y);
}
std::tuple<at::Tensor, at::Tensor, at::Tensor>
op_layer_norm_fwd_meta(const at::Tensor &x, const at::Tensor &, const at::Tensor &, double) {
  int64_t rows = x.dim() ? x.numel() / std::max<int64_t>(x.size(-1), 1) : 1;
  return {at::empty_like(x), at::empty({rows}, x.options()), at::empty({rows}, x.options())};
}
std::tuple<at::Tensor, at::Tensor, at::Tensor>
op_layer_norm_bwd_meta(const at::Tensor &, const at::Tensor &x, const at::Tensor &w,
                       const at::Tensor &, const at::Tensor &) {
  return {at::empty_like(x), at::empty_like(w), at::empty_like(w)};
}

} // namespace

TORCH_LIBRARY(tilec_nn, m) {
  m.def("softmax_fwd(Tensor x) -> Tensor");
  m.def("softmax_bwd(Tensor y, Tensor dy) -> Tensor");
  m.def("layer_norm_fwd(Tensor x, Tensor weight, Tensor bias, float eps) -> "
        "(Tensor, Tensor, Tensor)");
  m.def("layer_norm_bwd(Tensor dy, Tensor x, Tensor weight, Tensor mean, Tensor rstd) -> "
        "(Tensor, Tensor, Tensor)");
}

// CUDA tensors run the kernels. CPU tensors get the same functions, so that the tensor
// launchers' checks explain the mistake instead of the dispatcher's "no kernel for CPU".
TORCH_LIBRARY_IMPL(tilec_nn, CUDA, m) {
  m.impl("softmax_fwd", &op_softmax_fwd);
  m.impl("softmax_bwd", &op_softmax_bwd);
  m.impl("layer_norm_fwd", &op_layer_norm_fwd);
  m.impl("layer_norm_bwd", &op_layer_norm_bwd);
}
TORCH_LIBRARY_IMPL(tilec_nn, CPU, m) {
  m.impl("softmax_fwd", &op_softmax_fwd);
  m.impl("softmax_bwd", &op_softmax_bwd);
  m.impl("layer_norm_fwd", &op_layer_norm_fwd);
  m.impl("layer_norm_bwd", &op_layer_norm_bwd);
}
TORCH_LIBRARY_IMPL(tilec_nn, Meta, m) {
  m.impl("softmax_fwd", &op_softmax_fwd_meta);
  m.impl("softmax_bwd", &op_softmax_bwd_meta);
  m.impl("layer_norm_fwd", &op_layer_norm_fwd_meta);
  m.impl("layer_norm_bwd", &op_layer_norm_bwd_meta);
}
