// Value conversion (tl::cast, t.to<T>()) and reinterpretation (tl::bitcast).
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void conversions(const float* x, int* as_int, unsigned* bits, tl::half* h,
                              double* d, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask);
  tl::store(as_int + offs, tl::cast<int>(v), mask);
  tl::store(bits + offs, tl::bitcast<unsigned>(v), mask);
  tl::store(h + offs, tl::cast<tl::half>(v), mask);
  // In a template, `.to` on a dependent tile needs the `template` keyword (plain C++).
  tl::store(d + offs, offs.template to<double>(), mask);
}

// Without template parameters the AST is resolved: t.to<T>() is an ordinary member call.
TILEC_KERNEL void fixed_size(const int* x, float* y) {
  auto offs = tl::program_id(0) * 128 + tl::arange<0, 128>();
  tl::store(y + offs, tl::load(x + offs).to<float>());
}

// IR-LABEL: kernel @conversions<int BLOCK>
// IR:       = cast %{{[0-9]+}}:v : tile<int, BLOCK>
// IR:       = bitcast %{{[0-9]+}}:v : tile<unsigned, BLOCK>
// IR:       = cast %{{[0-9]+}}:v : tile<tl::half, BLOCK>
// IR:       = cast %{{[0-9]+}}:offs : tile<double, BLOCK>
// IR-LABEL: kernel @fixed_size<>
// IR:       = cast %{{[0-9]+}} : tile<float, 128>

// CU-LABEL: conversions(
// CU:       = tilec::cast<int>(v[i]);
// CU:       = tilec::bitcast<unsigned>(v[i]);
// CU:       = tilec::cast<tl::half>(v[i]);
// CU:       = tilec::cast<double>(offs[i]);
// CU-LABEL: template <int NUM_WARPS, int NUM_STAGES, unsigned long long DIV16>
// CU-NEXT:  __global__ void TILEC_LAUNCH_BOUNDS(NUM_WARPS * tilec::WARP_SIZE)
// CU-NEXT:  fixed_size(const int* x, float* y) {
// CU:       using L0 = tilec::Blocked1D<128, THREADS, L0_RUN>;
// CU:       = tilec::cast<float>(
