// EXPECT: accepted
#include <tilec/tl.h>
inline int helper(int a) { return a + 1; }
