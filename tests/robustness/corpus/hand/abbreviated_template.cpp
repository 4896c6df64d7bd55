// EXPECT: error abbreviated_template.cpp:4:.*declared 'auto'
#include <tilec/tl.h>
// No template header at all: `auto` alone makes the kernel a template.
TILEC_KERNEL void k(const float *x, auto out, int n) {
  auto offs = tl::arange<0, 128>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}
