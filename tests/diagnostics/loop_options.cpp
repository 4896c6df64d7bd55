// Loop options (tl::range(..., {...})) are compile-time values, and a kernel's loops agree on
// num_stages.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void stages_differ(const float *x, float *out, int n, bool ws) {
  auto offs = tl::arange<0, BLOCK>();
  auto acc = tl::zeros<float, BLOCK>();
  for (int k : tl::range(0, n, BLOCK, {.num_stages = 3}))
    acc += tl::load(x + k + offs, k + offs < n);
  // CHECK: loop_options.cpp:[[@LINE+1]]:{{[0-9]+}}: error: this kernel's loops ask for different num_stages (2 here, 3 before): tilec pipelines every loop of a kernel with one stage count
  for (int k : tl::range(0, n, BLOCK, {.num_stages = 2}))
    acc += tl::load(x + k + offs, k + offs < n);
  tl::store(out + offs, acc);
}

template <int BLOCK>
TILEC_KERNEL void runtime_option(const float *x, float *out, int n, int stages) {
  auto offs = tl::arange<0, BLOCK>();
  auto acc = tl::zeros<float, BLOCK>();
  // CHECK: loop_options.cpp:[[@LINE+1]]:{{[0-9]+}}: error: loop option 'num_stages' must be a compile-time integer (a literal or a template parameter)
  for (int k : tl::range(0, n, BLOCK, {.num_stages = stages}))
    acc += tl::load(x + k + offs, k + offs < n);
  tl::store(out + offs, acc);
}

template <int BLOCK, bool WS>
TILEC_KERNEL void ws_template(const float *x, float *out, int n) {
  auto offs = tl::arange<0, BLOCK>();
  auto acc = tl::zeros<float, BLOCK>();
  // CHECK: loop_options.cpp:[[@LINE+1]]:{{[0-9]+}}: error: warp_specialize must be true or false here (tilec decides it once for every specialization)
  for (int k : tl::range(0, n, BLOCK, {.warp_specialize = WS}))
    acc += tl::load(x + k + offs, k + offs < n);
  tl::store(out + offs, acc);
}
