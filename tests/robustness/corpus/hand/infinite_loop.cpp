// EXPECT: accepted
#include <tilec/tl.h>
template <int BLOCK>
TILEC_KERNEL void spin(int *flag) {
  while (tl::load(flag) == 0) {
  }
}
