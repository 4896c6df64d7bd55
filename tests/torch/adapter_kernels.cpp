// Kernels whose tensor launchers tests/torch/adapter_test.cpp calls: a row stride, a read-only
// fp16 operand and a scalar; an element type parameter; an autotuned launcher.
#include <tilec/tl.h>

// out[r, c] = in[r * in_stride + c] * w[c] * s, out dense.
template <int BLOCK>
TILEC_KERNEL void scale_rows(float *out, const float *in, const tl::half *w, int in_stride, int n,
                             float s) {
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n;
  auto x = tl::load(in + row * in_stride + cols, mask);
  auto wv = tl::cast<float>(tl::load(w + cols, mask));
  tl::store(out + row * n + cols, x * wv * s, mask);
}

template <class T, int BLOCK> TILEC_KERNEL void copy_t(T *dst, const T *src, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(dst + offs, tl::load(src + offs, offs < n), offs < n);
}

TILEC_AUTOTUNE(copy_t) = {
    .configs = {{.values = {{"BLOCK", 128}}, .num_warps = 4},
                {.values = {{"BLOCK", 256}}, .num_warps = 4}},
    .key = {"n"},
};
