// A launcher's specialization key holds at most 64 values: the template arguments,
// num_warps, num_stages and DIV16. A kernel with more template parameters is refused where it
// is declared, instead of throwing at its first launch.
#include <tilec/tl.h>

template <bool F0, bool F1, bool F2, bool F3, bool F4, bool F5, bool F6, bool F7, bool F8, bool F9, bool F10, bool F11, bool F12, bool F13, bool F14, bool F15, bool F16, bool F17, bool F18, bool F19, bool F20, bool F21, bool F22, bool F23, bool F24, bool F25, bool F26, bool F27, bool F28, bool F29, bool F30, bool F31, bool F32, bool F33, bool F34, bool F35, bool F36, bool F37, bool F38, bool F39, bool F40, bool F41, bool F42, bool F43, bool F44, bool F45, bool F46, bool F47, bool F48, bool F49, bool F50, bool F51, bool F52, bool F53, bool F54, bool F55, bool F56, bool F57, bool F58, bool F59, bool F60, bool F61>
TILEC_KERNEL void many_flags(float *y) {
  tl::store(y + tl::arange<0, 32>(), tl::full<float, 32>(1.0f));
}

// CHECK: too_many_template_parameters.cpp:[[@LINE-4]]:19: error: kernel 'many_flags' has 62 template parameters; at most 61 fit a specialization key: pass some as kernel arguments
