// EXPECT: error program_id_axis.cpp:5:
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void k(int *out) {
  int pid = tl::program_id(5);
  tl::store(out + pid, pid);
}
