// EXPECT: error program_id_runtime_axis.cpp:5:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(int *out, int axis) {
  int pid = tl::program_id(axis);
  tl::store(out + pid, pid);
}
