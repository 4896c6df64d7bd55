// A float template parameter (Triton's `eps: tl.constexpr` holding a float) is C++20; NVRTC
// compiles C++17. The error says to pass it as an argument instead.
#include <tilec/tl.h>

template <float EPS, int BLOCK>
TILEC_KERNEL void add_eps(const float *x, float *y, int n) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(y + offs, tl::load(x + offs, offs < n) + EPS, offs < n);
}

// CHECK: float_template_parameter.cpp:[[@LINE-6]]:17: error: a floating-point template parameter ('EPS') cannot be compiled for the GPU (C++17); pass it as a kernel argument ('float EPS') or as an integer template parameter
