// EXPECT: error 'tilec/no_such_header.h' file not found
#include <tilec/no_such_header.h>
