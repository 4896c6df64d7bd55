// EXPECT: accepted
#include <tilec/tl.h>
TILEC_KERNEL void nothing() {}
