// Vector add: the thread-index computation, the bounds mask, vector accesses and the
// specialization facts (DIV16 bits) that the access widths depend on.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void add_kernel(const float* x, const float* y, float* out, int n) {
  int pid = tl::program_id(0);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto a = tl::load(x + offs, mask);
  auto b = tl::load(y + offs, mask);
  tl::store(out + offs, a + b, mask);
}

// The analysis: offs is one contiguous run over the whole tile; the mask flips at most at
// multiples of gcd(BLOCK's factor, n's); pointer alignment comes from the DIV16 facts.
// IR-LABEL: kernel @add_kernel<int BLOCK>
// The runs are the store's (the narrowest write along them): where `out` is unaligned, runs
// of one keep the store's lanes adjacent.
// IR-NEXT:  layout #0 blocked[BLOCK] max_vec=tilec::cmin(4, tilec::gcd((out_aligned ? 16 : 4), tilec::pow2_factor(BLOCK) * 4) / 4)
// IR:       %3:n = param [3] : int
// IR:       %7 = arange [0] [BLOCK] : tile<int, BLOCK> #0  {contig=BLOCK div=1073741824 const=1}
// IR-NEXT:  %8:offs = binary "+" %6, %7 : tile<int, BLOCK> #0  {contig=BLOCK div=tilec::pow2_factor(BLOCK) const=1}
// IR-NEXT:  %9:mask = binary "<" %8:offs, %3:n : tile<bool, BLOCK> #0  {contig=1 div=1 const=tilec::cmin(tilec::gcd(tilec::pow2_factor(BLOCK), (n_div16 ? 16 : 1)), BLOCK)}
// IR-NEXT:  %10 = addptr %0:x, %8:offs : tile<const float*, BLOCK> #0  {contig=BLOCK div=tilec::gcd((x_aligned ? 16 : 4), tilec::pow2_factor(BLOCK) * 4) const=1}
// IR-NEXT:  %11:a = load %10, %9:mask : tile<float, BLOCK> #0  {width=tilec::cmin(L0::VEC, tilec::gcd((x_aligned ? 16 : 4), tilec::pow2_factor(BLOCK) * 4) / 4)
// IR:       store %14, %15, %9:mask  {width=L0::VEC}

// One __global__ template: the compile-time parameters, then the launch options.
// CU:       template <int BLOCK, int NUM_WARPS, int NUM_STAGES, unsigned long long DIV16>
// CU-NEXT:  __global__ void TILEC_LAUNCH_BOUNDS(NUM_WARPS * tilec::WARP_SIZE)
// CU-NEXT:  add_kernel(const float* x, const float* y, float* out, int n) {
// CU-NEXT:    constexpr int THREADS = NUM_WARPS * tilec::WARP_SIZE;
// Facts: bit i of DIV16 for argument i.
// CU-NEXT:    constexpr bool x_aligned = (DIV16 >> 0) & 1u;
// CU-NEXT:    constexpr bool y_aligned = (DIV16 >> 1) & 1u;
// CU-NEXT:    constexpr bool out_aligned = (DIV16 >> 2) & 1u;
// CU-NEXT:    constexpr bool n_div16 = (DIV16 >> 3) & 1u;
// Runs as long as the store can write at once in this specialization.
// CU:         constexpr int L0_RUN = tilec::vector_width(tilec::cmin(4, tilec::gcd((out_aligned ? 16 : 4), tilec::pow2_factor(BLOCK) * 4) / 4));
// CU:         using L0 = tilec::Blocked1D<BLOCK, THREADS, L0_RUN>;
// CU-NEXT:    const int tid = threadIdx.x;
// The source line each statement came from.
// CU:         // vector_add.cpp:7: tl::program_id(0)
// CU-NEXT:    const int pid = int(blockIdx.x);
// CU-NEXT:    int offs[L0::ELEMS];
// CU-NEXT:    constexpr int mask_run = tilec::gcd(L0::VEC, tilec::cmin(tilec::gcd(tilec::pow2_factor(BLOCK), (n_div16 ? 16 : 1)), BLOCK)); // mask is the same over runs this long
// CU-NEXT:    bool mask[L0::ELEMS];
// CU-NEXT:  #pragma unroll
// CU-NEXT:    for (int i = 0; i < L0::ELEMS; ++i) {
// CU-NEXT:      // vector_add.cpp:8: pid * BLOCK + tl::arange<0, BLOCK>()
// CU-NEXT:      offs[i] = ((pid * BLOCK) + L0::coord(tid, i));
// CU-NEXT:      // vector_add.cpp:9: offs < n
// CU-NEXT:      mask[i] = (offs[i - i % mask_run] < n);
// CU-NEXT:    }
// A masked vector load: width and mask uniformity are constexpr in the specialization.
// CU:         constexpr int a_width = tilec::vector_width(tilec::cmin(L0::VEC, tilec::gcd((x_aligned ? 16 : 4), tilec::pow2_factor(BLOCK) * 4) / 4));
// CU-NEXT:    constexpr bool a_mask_uniform = tilec::cmin(tilec::gcd(tilec::pow2_factor(BLOCK), (n_div16 ? 16 : 1)), BLOCK) % a_width == 0;
// CU-NEXT:    float a[L0::ELEMS];
// CU-NEXT:  #pragma unroll
// CU-NEXT:    for (int i = 0; i < L0::ELEMS; i += a_width)
// CU-NEXT:      tilec::load_vec<a_width, a_mask_uniform>(&a[i], (x + offs[i]), &mask[i], 0.0f);
// CU:           tilec::load_vec<b_width, b_mask_uniform>(&b[i], (y + offs[i]), &mask[i], 0.0f);
// CU:         for (int i = 0; i < L0::ELEMS; ++i) [[SUM:t[0-9]+]][i] = (a[i] + b[i]);
// CU:         constexpr int store_width = tilec::vector_width(L0::VEC);
// Only owners store: threads that hold replicated elements do not.
// CU:           tilec::store_vec<store_width, store_mask_uniform>((out + offs[i]), &[[SUM]][i], &mask[i], L0::owner(tid));
// CU-NEXT:  }
