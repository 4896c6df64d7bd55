// A kernel over any element type (add_kernel_t style): T stays a template parameter of the
// generated kernel; fp16 inputs add in fp32 through tl::cast.
#include <tilec/tl.h>

template <class T, int BLOCK>
TILEC_KERNEL void add_kernel_t(const T* x, const T* y, T* out, int n) {
  int pid = tl::program_id(0);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::cast<float>(tl::load(x + offs, mask));
  auto b = tl::cast<float>(tl::load(y + offs, mask));
  tl::store(out + offs, tl::cast<T>(a + b), mask);
}

// IR-LABEL: kernel @add_kernel_t<class T, int BLOCK>
// IR:       %0:x = param [0] : const T*
// IR:       %2:out = param [2] : T*
// IR:       = load %{{[0-9]+}}, %9:mask : tile<T, BLOCK>
// IR-NEXT:  %{{[0-9]+}}:a = cast %{{[0-9]+}} : tile<float, BLOCK>
// IR:       = binary "+" %{{[0-9]+}}:a, %{{[0-9]+}}:b : tile<float, BLOCK>
// IR-NEXT:  = cast %{{[0-9]+}} : tile<T, BLOCK>

// CU:       template <class T, int BLOCK, int NUM_WARPS, int NUM_STAGES, unsigned long long DIV16>
// CU-NEXT:  __global__ void TILEC_LAUNCH_BOUNDS(NUM_WARPS * tilec::WARP_SIZE)
// CU-NEXT:  add_kernel_t(const T* x, const T* y, T* out, int n) {
// The widest access (16 bytes) depends on sizeof(T), resolved per specialization.
// CU:         using L0 = tilec::Blocked1D<BLOCK, THREADS, L0_RUN>;
// CU:         constexpr int [[X:t[0-9]+]]_width = tilec::vector_width(tilec::cmin(L0::VEC, tilec::gcd((x_aligned ? 16 : sizeof(T)), tilec::pow2_factor(BLOCK) * sizeof(T)) / sizeof(T)));
// CU:         T [[X]][L0::ELEMS];
// Masked-off lanes read T(0), whatever T is.
// CU:           tilec::load_vec<[[X]]_width, [[X]]_mask_uniform>(&[[X]][i], (x + offs[i]), &mask[i], tilec::cast<T>(0));
// CU:         float a[L0::ELEMS];
// CU:         for (int i = 0; i < L0::ELEMS; ++i) a[i] = tilec::cast<float>([[X]][i]);
// CU:         // template_type.cpp:12: tl::cast<T>(a + b)
// CU-NEXT:    T [[R:t[0-9]+]][L0::ELEMS];
// CU-NEXT:  #pragma unroll
// CU-NEXT:    for (int i = 0; i < L0::ELEMS; ++i) [[R]][i] = tilec::cast<T>((a[i] + b[i]));
// CU:         tilec::store_vec<store_width, store_mask_uniform>((out + offs[i]), &[[R]][i], &mask[i], L0::owner(tid));

// The launcher is a template over the same parameters; "ti" = type, int.
// H:        template <class T, int BLOCK>
// H-NEXT:   inline void add_kernel_t(tilec::Grid grid, tilec::Stream stream, const T* x, const T* y, T* out, int n,
// H:          static tilec::Kernel kernel(tilec_generated::template_type::source, "add_kernel_t", "ti");
// H:          key.push(tilec::type_id<T>());
// H-NEXT:     key.push(int64_t(BLOCK));
