// EXPECT: error error: stop here
#include <tilec/tl.h>
#error stop here
