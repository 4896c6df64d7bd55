// Vector add: out[i] = x[i] + y[i], one BLOCK-element tile per program instance.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void add_kernel(const float *x, const float *y, float *out, int n) {
  int pid = tl::program_id(0);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask);
  tl::store(out + offs, a + b, mask);
}

// The same kernel over any element type (fp16 accumulates in fp32).
template <class T, int BLOCK>
TILEC_KERNEL void add_kernel_t(const T *x, const T *y, T *out, int n) {
  int pid = tl::program_id(0);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::cast<float>(tl::load(x + offs, mask));
  auto b = tl::cast<float>(tl::load(y + offs, mask));
  tl::store(out + offs, tl::cast<T>(a + b), mask);
}
