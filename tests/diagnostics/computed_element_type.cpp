// An element type computed from template parameters (std::conditional_t, as a Triton kernel
// picks a dtype per constexpr branch) cannot be followed in the uninstantiated template; the
// error says to make it a type template parameter instead.
#include <tilec/tl.h>

#include <type_traits>

template <bool WIDE, int BLOCK>
TILEC_KERNEL void widen(const float *x, float *y, int n) {
  using acc_t = std::conditional_t<WIDE, double, float>;
  auto offs = tl::arange<0, BLOCK>();
  auto v = tl::cast<acc_t>(tl::load(x + offs, offs < n));
  tl::store(y + offs, tl::cast<float>(v), offs < n);
}

// CHECK: computed_element_type.cpp:[[@LINE-4]]:21: error: element type 'acc_t' depends on template parameters through a type computation, which the translator cannot follow; make it a type template parameter of the kernel (template <class ACC>) and choose it where the kernel is launched
