// The kernels of examples/torch (nn_kernels.cpp) in the interpreter, against LibTorch's own
// softmax and layer norm and their gradients (autograd), in float and double, for row
// lengths below, at and between powers of two. Outputs start as NaN, so a lane that is never
// stored fails.
#include <tilec/interpret.h>

#include "nn_kernels.cpp"

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/autograd.h>

#include <limits>

namespace {

using tilec::interpret::launch;

template <class T> at::ScalarType type_of() {
  return std::is_same_v<T, float> ? at::kFloat : at::kDouble;
}
template <class T> at::Tensor poisoned(at::IntArrayRef sizes) {
  return at::full(sizes, std::numeric_limits<double>::quiet_NaN(), type_of<T>());
}
template <class T> T *ptr(const at::Tensor &t) { return t.data_ptr<T>(); }
template <class T> double tol() { return std::is_same_v<T, float> ? 2e-5 : 1e-12; }

void expect_close(const at::Tensor &got, const at::Tensor &want, double tol, const char *what) {
  ASSERT_FALSE(got.isnan().any().item<bool>()) << what << ": a lane was never stored";
  EXPECT_TRUE(at::allclose(got, want, tol, tol))
      << what << ": max difference " << (got - want).abs().max().item<double>();
}

template <class T, int BLOCK> void check_softmax(int64_t rows, int64_t n) {
  at::manual_seed(1);
  at::Tensor x = at::randn({rows, n}, type_of<T>()).mul_(3).requires_grad_();
  at::Tensor dy = at::randn({rows, n}, type_of<T>());
  at::Tensor want = at::softmax(x, -1);
  auto grads = torch::autograd::grad({want}, {x}, {dy});

  at::Tensor y = poisoned<T>({rows, n}), dx = poisoned<T>({rows, n});
  at::Tensor xd = x.detach();
  launch(softmax_fwd<T, BLOCK>, tilec::Grid{uint32_t(rows)}, ptr<T>(y), ptr<T>(xd), int(n));
  expect_close(y, want.detach(), tol<T>(), "softmax_fwd");
  launch(softmax_bwd<T, BLOCK>, tilec::Grid{uint32_t(rows)}, ptr<T>(dx), ptr<T>(y), ptr<T>(dy),
         int(n));
  expect_close(dx, grads[0], tol<T>(), "softmax_bwd");
}

template <class T, int BLOCK> void check_layer_norm(int64_t rows, int64_t n) {
  at::manual_seed(2);
  const double eps = 1e-5;
  at::Tensor x = (at::randn({rows, n}, type_of<T>()) * 2 + 1).requires_grad_();
  at::Tensor w = at::randn({n}, type_of<T>()).requires_grad_();
  at::Tensor b = at::randn({n}, type_of<T>()).requires_grad_();
  at::Tensor dy = at::randn({rows, n}, type_of<T>());
  at::Tensor want = at::layer_norm(x, {n}, w, b, eps);
  auto grads = torch::autograd::grad({want}, {x, w, b}, {dy});

  at::Tensor y = poisoned<T>({rows, n}), mean = poisoned<T>({rows}), rstd = poisoned<T>({rows});
  at::Tensor xd = x.detach(), wd = w.detach(), bd = b.detach();
  launch(layer_norm_fwd<T, BLOCK>, tilec::Grid{uint32_t(rows)}, ptr<T>(y), ptr<T>(mean),
         ptr<T>(rstd), ptr<T>(xd), ptr<T>(wd), ptr<T>(bd), int(n), T(eps));
  expect_close(y, want.detach(), 10 * tol<T>(), "layer_norm_fwd");
  expect_close(mean, xd.mean(-1), tol<T>(), "layer_norm_fwd mean");

  at::Tensor dx = poisoned<T>({rows, n}), dw = poisoned<T>({n}), db = poisoned<T>({n});
  launch(layer_norm_bwd_dx<T, BLOCK>, tilec::Grid{uint32_t(rows)}, ptr<T>(dx), ptr<T>(dy),
         ptr<T>(xd), ptr<T>(wd), ptr<T>(mean), ptr<T>(rstd), int(n));
  expect_close(dx, grads[0], 10 * tol<T>(), "layer_norm_bwd_dx");
  constexpr int kCols = 64;
  launch(layer_norm_bwd_dwdb<T, kCols>, tilec::Grid{uint32_t(tilec::cdiv(n, kCols))}, ptr<T>(dw),
         ptr<T>(db), ptr<T>(dy), ptr<T>(xd), ptr<T>(mean), ptr<T>(rstd), int(rows), int(n));
  expect_close(dw, grads[1], 10 * tol<T>(), "layer_norm_bwd dw");
  expect_close(db, grads[2], 10 * tol<T>(), "layer_norm_bwd db");
}

TEST(TorchNnKernels, SoftmaxFloat) {
  check_softmax<float, 32>(3, 1);
  check_softmax<float, 64>(5, 33);
  check_softmax<float, 128>(2, 128);
  check_softmax<float, 256>(7, 200);
}

TEST(TorchNnKernels, SoftmaxDouble) {
  check_softmax<double, 32>(4, 17);
  check_softmax<double, 128>(3, 100);
}

TEST(TorchNnKernels, LayerNormFloat) {
  check_layer_norm<float, 32>(3, 2);
  check_layer_norm<float, 64>(9, 33);
  check_layer_norm<float, 128>(70, 128); // more columns than one dwdb program takes
  check_layer_norm<float, 256>(4, 130);
}

TEST(TorchNnKernels, LayerNormDouble) {
  check_layer_norm<double, 32>(5, 31);
  check_layer_norm<double, 128>(3, 100);
}

} // namespace
