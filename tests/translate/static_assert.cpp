// A static_assert over template parameters is kept in the generated kernel (NVRTC refuses a
// specialization it fails) and in the plain launcher (a host call with such values does not
// compile). One that does not depend on them was checked where the kernel source was parsed,
// and is dropped.
#include <tilec/tl.h>

template <int BLOCK, class T>
TILEC_KERNEL void copy(const T *x, T *out, int n) {
  static_assert(BLOCK % 32 == 0 && sizeof(T) <= 4, "BLOCK must be a multiple of 32");
  static_assert(sizeof(int) == 4, "checked by the host compiler");
  auto offs = tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n), offs < n);
}

// IR-LABEL: kernel @copy
// IR:       static_assert "BLOCK must be a multiple of 32" [BLOCK % 32 == 0 && sizeof(T) <= 4]
// IR-NOT:   static_assert

// CU-LABEL: copy(
// CU:       static_assert(BLOCK % 32 == 0 && sizeof(T) <= 4, "BLOCK must be a multiple of 32");
// CU-NOT:   checked by the host compiler

// H-LABEL: inline void copy(
// H:       static_assert(BLOCK % 32 == 0 && sizeof(T) <= 4, "copy: BLOCK must be a multiple of 32");
