// Softmax and layer normalization over the last dimension, forward and backward, for the
// PyTorch extension of this folder. One row of n elements per program instance (n <= BLOCK);
// rows are dense and follow each other (row r starts at r * n). T is float or double and the
// math runs in T, so that float64 tensors can be checked with torch.autograd.gradcheck.
#include <tilec/tl.h>

// y = exp(x - max(x)) / sum(exp(x - max(x))) per row.
template <class T, int BLOCK> TILEC_KERNEL void softmax_fwd(T *y, const T *x, int n) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  // -inf in the padding lanes: they do not change the max and exp() turns them into 0.
  auto v = tl::load(x + row * n + cols, mask, -INFINITY);
  auto num = tl::exp(v - tl::max(v));
  tl::store(y + row * n + cols, num / tl::sum(num), mask);
}

// dx = y * (dy - sum(dy * y)) per row.
template <class T, int BLOCK> TILEC_KERNEL void softmax_bwd(T *dx, const T *y, const T *dy, int n) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto yv = tl::load(y + row * n + cols, mask);
  auto dyv = tl::load(dy + row * n + cols, mask);
  T dot = tl::sum(yv * dyv); // padding lanes read 0 in both
  tl::store(dx + row * n + cols, yv * (dyv - dot), mask);
}

// y = (x - mean) * rstd * w + b per row; mean and rstd are kept for the backward pass.
template <class T, int BLOCK>
TILEC_KERNEL void layer_norm_fwd(T *y, T *mean, T *rstd, const T *x, const T *w, const T *b, int n,
                                 T eps) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto xv = tl::load(x + row * n + cols, mask);
  T mu = tl::sum(xv) / n;
  auto d = tl::where(mask, xv - mu, 0.0f); // padding must not add to the variance
  T rs = 1.0f / tl::sqrt(tl::sum(d * d) / n + eps);
  tl::store(mean + row, mu);
  tl::store(rstd + row, rs);
  auto wv = tl::load(w + cols, mask);
  auto bv = tl::load(b + cols, mask);
  tl::store(y + row * n + cols, d * rs * wv + bv, mask);
}

// dx per row, with xhat = (x - mean) * rstd and wdy = w * dy:
//   dx = (wdy - (xhat * mean(xhat * wdy) + mean(wdy))) * rstd
template <class T, int BLOCK>
TILEC_KERNEL void layer_norm_bwd_dx(T *dx, const T *dy, const T *x, const T *w, const T *mean,
                                    const T *rstd, int n) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto xv = tl::load(x + row * n + cols, mask);
  auto dyv = tl::load(dy + row * n + cols, mask);
  auto wv = tl::load(w + cols, mask);
  T rs = tl::load(rstd + row);
  auto xhat = tl::where(mask, (xv - tl::load(mean + row)) * rs, 0.0f);
  auto wdy = wv * dyv; // 0 in the padding lanes
  T c1 = tl::sum(xhat * wdy) / n;
  T c2 = tl::sum(wdy) / n;
  tl::store(dx + row * n + cols, (wdy - (xhat * c1 + c2)) * rs, mask);
}

// dw = sum over rows of dy * xhat and db = sum over rows of dy, for BLOCK columns per program
// instance: each column is summed by one program, in row order, so the result is the same
// from run to run.
template <class T, int BLOCK>
TILEC_KERNEL void layer_norm_bwd_dwdb(T *dw, T *db, const T *dy, const T *x, const T *mean,
                                      const T *rstd, int rows, int n) {
  auto cols = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto dw_acc = tl::zeros<T, BLOCK>();
  auto db_acc = tl::zeros<T, BLOCK>();
  for (int row = 0; row < rows; ++row) {
    auto dyv = tl::load(dy + row * n + cols, mask);
    auto xv = tl::load(x + row * n + cols, mask);
    dw_acc += dyv * ((xv - tl::load(mean + row)) * tl::load(rstd + row));
    db_acc += dyv;
  }
  tl::store(dw + cols, dw_acc, mask);
  tl::store(db + cols, db_acc, mask);
}
