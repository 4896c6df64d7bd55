// GEGLU forward and backward, exact (erf) and approximate (tanh) GELU, ported from Unsloth
// (github.com/unslothai/unsloth, unsloth/kernels/geglu.py: _exact_forward_kernel,
// _exact_backward_kernel, _approx_forward_kernel, _approx_backward_kernel; Apache License 2.0,
// copyright Daniel Han-Chen and the Unsloth team). Flat over n_elements, BLOCK_SIZE (1024 in
// the original's host code) elements per program: h = gelu(e) * g forward; backward reads
// DW (dh), e and g and writes h over DW, df = DW * f over e and de over g.
//
// What differs from the original, and why:
// - Each kernel starts with `if LONG_INDEXING:` blocks that give `offsets` (and n_elements) the
//   type int64 in one branch and int32 in the other, then run one common body. A C++ variable
//   keeps one type and a TILEC_FUNC helper has a single return at its end, so the common body
//   is a TILEC_FUNC (…_body) that each branch calls with its own offsets; its statements are
//   the original's, in order.
// - n_elements is int64_t: LONG_INDEXING is for more than 2^31 - 4096 elements, which an int
//   cannot hold (Triton specializes the argument to i64 there). In the int32 branch tilec
//   compares the int32 offsets with n_elements narrowed to int32 (Triton would widen the
//   offsets to i64); the same there, since the host takes that branch only below 2^31 - 4096.
// - `tl.math.rsqrt(2.0)` is tl::rsqrt(2.0f) (a float32 in Triton); the Python float constants
//   are float constants; triton_tanh (libdevice's tanh) is tl::tanh.
// - LONG_INDEXING is passed as 0 / 1 by the host; it is a bool template parameter here.
// - `f_row = f_row.to(g_row.dtype)` (and `.to(DW_row.dtype)`) re-type a variable: the cast is
//   to the helper's T (the translator refuses a type computed from a tile, such as
//   `tl::detail::elem_t<decltype(g_row)>`), into a new variable (…_t, …_g). The approximate
//   backward's helper names its element type `dtype`, as its locals include the original's
//   `T` (1 + tanh).
#include <tilec/tl.h>

// f = 1/2 * e * (1 + erf(1/sqrt(2) * e)); h = f * up
template <class T>
TILEC_FUNC void exact_forward_body(const T *e, const T *g, T *h, auto offsets, auto mask) {
  auto e_row = tl::cast<float>(tl::load(e + offsets, mask, 0));
  auto g_row = tl::load(g + offsets, mask, 0); // left in its type

  auto f_row = 0.5f * e_row * (tl::erf(tl::rsqrt(2.0f) * e_row) + 1.0f);
  auto f_row_g = tl::cast<T>(f_row); // rounded to g's type, as Hugging Face does
  auto h_row = f_row_g * g_row;

  tl::store(h + offsets, h_row, mask);
}

template <class T, int BLOCK_SIZE, bool LONG_INDEXING>
TILEC_KERNEL void exact_forward_kernel(const T *e, const T *g, T *h, int64_t n_elements) {
  int block_idx = tl::program_id(0);
  if constexpr (LONG_INDEXING) {
    auto offsets =
        tl::cast<int64_t>(block_idx) * BLOCK_SIZE + tl::cast<int64_t>(tl::arange<0, BLOCK_SIZE>());
    auto n_elements_64 = tl::cast<int64_t>(n_elements);
    auto mask = offsets < n_elements_64;
    exact_forward_body(e, g, h, offsets, mask);
  } else {
    auto offsets = block_idx * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
    auto mask = offsets < n_elements;
    exact_forward_body(e, g, h, offsets, mask);
  }
}

// f = 1/2 * e * (1 + erf(1/sqrt(2) * e)), h = f * up;
// df/de = 1/2 * (1 + erf(1/sqrt(2) * e)) + 1/sqrt(2 pi) * e * exp(-e^2 / 2),
// with f = 1/2 * (1 + erf(1/sqrt(2) * e)) * e reusing the first term
template <class T> TILEC_FUNC void exact_backward_body(T *DW, T *e, T *g, auto offsets, auto mask) {
  auto DW_row = tl::load(DW + offsets, mask, 0); // left in its type
  auto e_row = tl::cast<float>(tl::load(e + offsets, mask, 0));
  auto g_row = tl::load(g + offsets, mask, 0); // left in its type

  // e_row's part, kept for df/de
  auto f_partial_row = 0.5f * (tl::erf(tl::rsqrt(2.0f) * e_row) + 1.0f);
  auto f_row = f_partial_row * e_row;

  auto f_row_t = tl::cast<T>(f_row);
  // h = f * g
  auto h_row = f_row_t * g_row;
  // df = DW * f
  auto df_row = DW_row * f_row_t;
  // dg = DW * g
  auto dg_row = DW_row * g_row;

  const float t = 0.3989422804014327f; // 1/sqrt(2*pi)
  auto df_de = f_partial_row + t * e_row * tl::exp(-0.5f * e_row * e_row);

  auto de_row = tl::cast<float>(dg_row) * df_de;
  auto de_row_t = tl::cast<T>(de_row);

  // the three results over the three inputs
  tl::store(DW + offsets, h_row, mask);   // h  = f * g
  tl::store(e + offsets, df_row, mask);   // df = DW * f
  tl::store(g + offsets, de_row_t, mask); // de
}

template <class T, int BLOCK_SIZE, bool LONG_INDEXING>
TILEC_KERNEL void exact_backward_kernel(T *DW, T *e, T *g, int64_t n_elements) {
  int block_idx = tl::program_id(0);
  if constexpr (LONG_INDEXING) {
    auto offsets =
        tl::cast<int64_t>(block_idx) * BLOCK_SIZE + tl::cast<int64_t>(tl::arange<0, BLOCK_SIZE>());
    auto n_elements_64 = tl::cast<int64_t>(n_elements);
    auto mask = offsets < n_elements_64;
    exact_backward_body(DW, e, g, offsets, mask);
  } else {
    auto offsets = block_idx * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
    auto mask = offsets < n_elements;
    exact_backward_body(DW, e, g, offsets, mask);
  }
}

// f = 1/2 * e * (1 + tanh(sqrt(2/pi) * e * (1 + 0.044715 * e^2))); h = f * up
template <class T>
TILEC_FUNC void approx_forward_body(const T *e, const T *g, T *h, auto offsets, auto mask) {
  const float s = 0.7978845608028654f; // sqrt(2 / pi)

  auto e_row = tl::cast<float>(tl::load(e + offsets, mask, 0));
  auto g_row = tl::load(g + offsets, mask, 0); // left in its type

  auto f_row = 0.5f * e_row * (tl::tanh(s * e_row * (1.0f + 0.044715f * e_row * e_row)) + 1.0f);
  auto f_row_g = tl::cast<T>(f_row); // rounded to g's type, as Hugging Face does
  auto h_row = f_row_g * g_row;

  tl::store(h + offsets, h_row, mask);
}

template <class T, int BLOCK_SIZE, bool LONG_INDEXING>
TILEC_KERNEL void approx_forward_kernel(const T *e, const T *g, T *h, int64_t n_elements) {
  int block_idx = tl::program_id(0);
  if constexpr (LONG_INDEXING) {
    auto offsets =
        tl::cast<int64_t>(block_idx) * BLOCK_SIZE + tl::cast<int64_t>(tl::arange<0, BLOCK_SIZE>());
    auto n_elements_64 = tl::cast<int64_t>(n_elements);
    auto mask = offsets < n_elements_64;
    approx_forward_body(e, g, h, offsets, mask);
  } else {
    auto offsets = block_idx * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
    auto mask = offsets < n_elements;
    approx_forward_body(e, g, h, offsets, mask);
  }
}

// df/de = 1/2 (1 + tanh(a + b)) + 1/2 sech^2(a + b) (a + 3 b), a = sqrt(2/pi) e,
// b = a * 0.044715 e^2, with sech^2 = 1 - tanh^2 written through T = 1 + tanh(a + b)
// (arXiv 2305.12073)
template <class dtype>
TILEC_FUNC void approx_backward_body(dtype *DW, dtype *e, dtype *g, auto offsets, auto mask) {
  auto DW_row = tl::load(DW + offsets, mask, 0); // left in its type
  auto e_row = tl::cast<float>(tl::load(e + offsets, mask, 0));
  auto g_row = tl::load(g + offsets, mask, 0); // left in its type

  const float s = 0.7978845608028654f;    // sqrt(2 / pi)
  auto a = s * e_row;                     // sqrt(2 / pi) * x
  auto b = a * 0.044715f * e_row * e_row; // a * 0.044715 * x^2
  auto T = 1.0f + tl::tanh(a + b);
  auto T2 = 0.5f * T;
  // Q = 0.5 * -T * (T - 2) * (a + 3 b), halved
  auto Q2 = -T2 * (T - 2.0f) * (a + 3.0f * b);
  auto df_de = T2 + Q2; // (T + Q) / 2

  // f = 1/2 * e * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
  auto f_row = T2 * e_row;
  auto f_row_t = tl::cast<dtype>(f_row);
  // h = f * g
  auto h_row = f_row_t * g_row;
  // df = DW * f
  auto df_row = DW_row * f_row_t;
  // dg = DW * g
  auto dg_row = DW_row * g_row;

  auto de_row = tl::cast<float>(dg_row) * df_de;
  auto de_row_t = tl::cast<dtype>(de_row);

  // the three results over the three inputs
  tl::store(DW + offsets, h_row, mask);   // h  = f * g
  tl::store(e + offsets, df_row, mask);   // df = DW * f
  tl::store(g + offsets, de_row_t, mask); // de
}

template <class T, int BLOCK_SIZE, bool LONG_INDEXING>
TILEC_KERNEL void approx_backward_kernel(T *DW, T *e, T *g, int64_t n_elements) {
  int block_idx = tl::program_id(0);
  if constexpr (LONG_INDEXING) {
    auto offsets =
        tl::cast<int64_t>(block_idx) * BLOCK_SIZE + tl::cast<int64_t>(tl::arange<0, BLOCK_SIZE>());
    auto n_elements_64 = tl::cast<int64_t>(n_elements);
    auto mask = offsets < n_elements_64;
    approx_backward_body(DW, e, g, offsets, mask);
  } else {
    auto offsets = block_idx * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
    auto mask = offsets < n_elements;
    approx_backward_body(DW, e, g, offsets, mask);
  }
}
