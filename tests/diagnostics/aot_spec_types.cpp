// --aot's template arguments must be what the runtime names specializations by: element types
// in its spelling (synonyms such as `int` are rewritten), true/false, decimal integers.
#include <tilec/tl.h>

template <class T, int BLOCK>
TILEC_KERNEL void copy_kernel(const T* x, T* out) {
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs));
}

// CHECK: tilec: error: --aot 'copy_kernel<tl::bf16,256>': template argument 'tl::bf16' for T: not an element type; use bool, int8_t ... int64_t, uint8_t ... uint64_t, float, double, tl::half, tl::bfloat16, tl::float8_e4m3 or tl::float8_e5m2
