// C++ a kernel may not contain is named as the author wrote it, with what to write instead,
// not by clang's class names (CXXConstructExpr, InitListExpr, ...).
#include <tilec/tl.h>
#include <vector>

template <int BLOCK>
TILEC_KERNEL void k(float *out, int n) {
  struct Point { int x, y; };
  // CHECK: unsupported_constructs.cpp:[[@LINE-1]]:3: error: declaring a struct, class, union or enum inside a kernel is not supported; kernels use tiles, scalars and pointers
  std::vector<float> v(4);
  // CHECK: unsupported_constructs.cpp:[[@LINE-1]]:22: error: objects of classes (structs, unions, std:: containers, a tl::tile constructed directly) are not supported in kernels; make tiles with tl::zeros, tl::full or tl::arange, and use scalars and pointers
  int weights[2] = {1, 2};
  // CHECK: unsupported_constructs.cpp:[[@LINE-1]]:20: error: brace initializers ({...}), arrays and aggregates are not supported in kernels; use tl::full / tl::zeros for tiles, or one scalar variable per value
  int bytes = sizeof(float);
  // CHECK: unsupported_constructs.cpp:[[@LINE-1]]:15: error: sizeof and alignof are not supported in kernels; use a literal or a template parameter
  auto offs = tl::arange<0, BLOCK>();
  float first = offs[0];
  // CHECK: unsupported_constructs.cpp:[[@LINE-1]]:17: error: indexing with [] is not supported in kernels: tiles have no per-element access; load through a pointer tile (tl::load(ptr + offsets)) or use tl::where
  goto done;
  // CHECK: unsupported_constructs.cpp:[[@LINE-1]]:3: error: goto and labels are not supported in kernels; use if, for and while
done:
  tl::store(out + offs, tl::full<float, BLOCK>(1.0f), offs < n);
}
// CHECK: unsupported_constructs.cpp:21:1: error: goto and labels are not supported in kernels; use if, for and while
// CHECK-NOT: error
// CHECK: 7 errors generated.
