// Checks for an input that does not exist (ctest passes does_not_exist.cpp).
// CHECK: tilec: error: no such file: '{{.*}}does_not_exist.cpp'
