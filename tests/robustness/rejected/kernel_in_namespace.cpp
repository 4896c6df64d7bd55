// Kernels are launched by name from the global namespace: two in different namespaces would
// give duplicate definitions, one in a namespace a launcher the caller looks for in vain.
// Anonymous namespaces are fine (host tests use them).
#include <tilec/tl.h>

namespace a {
template <int BLOCK>
TILEC_KERNEL void k(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}
} // namespace a

namespace {
template <int BLOCK>
TILEC_KERNEL void fine(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}
} // namespace

struct S {
  template <int BLOCK> TILEC_KERNEL static void member(float *out) {
    tl::store(out + tl::arange<0, BLOCK>(), tl::zeros<float, BLOCK>());
  }
};
// CHECK: kernel_in_namespace.cpp:8:19: error: TILEC_KERNEL 'k' is declared in namespace 'a': kernels and their launchers live in the global namespace; declare it outside the namespace (rename it if the name is taken there)
// CHECK: kernel_in_namespace.cpp:23:49: error: TILEC_KERNEL 'member' is a member of 'S': kernels must be free functions; declare it outside the class
// CHECK-NOT: error
// CHECK: 2 errors generated.
