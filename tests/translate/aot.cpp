// --aot: <stem>.aot.cu instantiates each requested specialization for nvcc with three DIV16
// masks (no facts, every pointer aligned, every eligible argument) and registers each under
// the name expression the runtime looks up.
// (ctest passes --aot=add_kernel<1024> --aot=scale<float,256>:8:2 --aot=scale<__half,128>)
// A type argument is rewritten in the runtime's spelling (__half is tl::half), under which
// the runtime looks the instance up.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void add_kernel(const float* x, const float* y, float* out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(out + offs, tl::load(x + offs, mask) + tl::load(y + offs, mask), mask);
}

// A float scalar cannot carry the fact: "all" equals "pointers" and is not repeated.
template <class T, int BLOCK>
TILEC_KERNEL void scale(const T* x, T* out, float s) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::cast<T>(tl::cast<float>(tl::load(x + offs)) * s));
}

// AOT:      #include "aot.cu"
// Default launch options: num_warps 4, num_stages 3; x, y, out are arguments 0-2, n is 3.
// AOT:      void* resolve_0() { return function_of(&add_kernel<1024, 4, 3, 0u>); }
// AOT-NEXT: void* resolve_1() { return function_of(&add_kernel<1024, 4, 3, 7u>); }
// AOT-NEXT: void* resolve_2() { return function_of(&add_kernel<1024, 4, 3, 15u>); }
// AOT-NEXT: void* resolve_3() { return function_of(&scale<float, 256, 8, 2, 0u>); }
// AOT-NEXT: void* resolve_4() { return function_of(&scale<float, 256, 8, 2, 3u>); }
// AOT-NEXT: void* resolve_5() { return function_of(&scale<tl::half, 128, 4, 3, 0u>); }
// AOT-NEXT: void* resolve_6() { return function_of(&scale<tl::half, 128, 4, 3, 3u>); }
// AOT-NOT:  resolve_7
// AOT:      tilec::register_aot_kernel("add_kernel<1024, 4, 3, 0u>", &resolve_0);
// AOT-NEXT: tilec::register_aot_kernel("add_kernel<1024, 4, 3, 7u>", &resolve_1);
// AOT-NEXT: tilec::register_aot_kernel("add_kernel<1024, 4, 3, 15u>", &resolve_2);
// AOT-NEXT: tilec::register_aot_kernel("scale<float, 256, 8, 2, 0u>", &resolve_3);
// AOT-NEXT: tilec::register_aot_kernel("scale<float, 256, 8, 2, 3u>", &resolve_4);
// AOT-NEXT: tilec::register_aot_kernel("scale<tl::half, 128, 4, 3, 0u>", &resolve_5);
// AOT-NEXT: tilec::register_aot_kernel("scale<tl::half, 128, 4, 3, 3u>", &resolve_6);
// AOT-NEXT: }

// The .cu and the launcher are written as usual.
// CU:       add_kernel(const float* x, const float* y, float* out, int n) {
// H:        inline void scale(tilec::Grid grid, tilec::Stream stream, const T* x, T* out, float s,
