// Names C++ reserves for the implementation, where CUDA's keywords live: the generated code
// would not compile with a parameter called __shared__.
#include <tilec/tl.h>

template <int B>
TILEC_KERNEL void k(const float *__shared__, float *_Out, int n) {
  auto offs = tl::arange<0, B>();
  tl::store(_Out + offs, tl::load(__shared__ + offs, offs < n, 0.0f), offs < n);
}
// CHECK: reserved_names.cpp:6:34: error: kernel parameter name '__shared__' is reserved (a leading '__' or '_' and a capital, where CUDA's own keywords such as __shared__ live); rename it
// CHECK: reserved_names.cpp:6:53: error: kernel parameter name '_Out' is reserved
