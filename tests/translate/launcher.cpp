// The launcher header: the generated CUDA embedded as a source string, and one typed host
// function per kernel that builds the specialization key and launches through tilec::Kernel.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void add_kernel(const float* x, const float* y, float* out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(out + offs, tl::load(x + offs, mask) + tl::load(y + offs, mask), mask);
}

template <class T, bool RELU, unsigned BLOCK>
TILEC_KERNEL void scale(const T* x, T* out, float s) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::cast<T>(tl::cast<float>(tl::load(x + offs)) * s));
}

TILEC_KERNEL void fill(int* out) { tl::store(out + tl::arange<0, 64>(), 7); }

// H:        #pragma once
// H-NEXT:   #include <tilec/runtime.h>
// H:        namespace tilec_generated::launcher {
// H-NEXT:   inline constexpr tilec::Source source = {"launcher.cu", R"tilec_cuda(// launcher.cu: CUDA for the kernels of launcher.cpp
// H:        __global__ void TILEC_LAUNCH_BOUNDS(NUM_WARPS * tilec::WARP_SIZE)
// H-NEXT:   add_kernel(const float* x, const float* y, float* out, int n) {
// H:        )tilec_cuda"};
// H-NEXT:   } // namespace tilec_generated::launcher

// H-LABEL:  /// Launches add_kernel over `grid` program instances on `stream`.
// H-NEXT:   template <int BLOCK>
// H-NEXT:   inline void add_kernel(tilec::Grid grid, tilec::Stream stream, const float* x, const float* y, float* out, int n,
// H-NEXT:       const tilec::LaunchOptions& options = {}) {
// Tile dimensions known only per specialization are checked where the launcher is instantiated.
// H-NEXT:     static_assert(tilec::valid_tile_dim(BLOCK), "add_kernel: tile dimension BLOCK must be a power of two <= 2^20");
// H-NEXT:     static tilec::Kernel kernel(tilec_generated::launcher::source, "add_kernel", "i");
// H-NEXT:     tilec::SpecKey key;
// H-NEXT:     key.push(int64_t(BLOCK));
// H-NEXT:     key.push(options.num_warps);
// H-NEXT:     key.push(options.num_stages);
// H-NEXT:     key.push(tilec::div16_mask(x, y, out, n));
// H-NEXT:     void* params[] = {(void*)&x, (void*)&y, (void*)&out, (void*)&n};
// H-NEXT:     kernel.launch(key, grid, options.num_warps * 32, /*shared_bytes=*/0, stream, params);
// H-NEXT:   }

// Template kinds: t(ype), b(ool), i(nteger).
// H-LABEL:  /// Launches scale over
// H-NEXT:   template <class T, bool RELU, unsigned int BLOCK>
// H-NEXT:   inline void scale(tilec::Grid grid, tilec::Stream stream, const T* x, T* out, float s,
// H:          static tilec::Kernel kernel(tilec_generated::launcher::source, "scale", "tbi");
// H-NEXT:     tilec::SpecKey key;
// H-NEXT:     key.push(tilec::type_id<T>());
// H-NEXT:     key.push(int64_t(RELU));
// H-NEXT:     key.push(int64_t(BLOCK));
// H:          key.push(tilec::div16_mask(x, out, s));

// A kernel without template parameters has a plain launcher.
// H-LABEL:  /// Launches fill over
// H-NEXT:   inline void fill(tilec::Grid grid, tilec::Stream stream, int* out,
// H:          static tilec::Kernel kernel(tilec_generated::launcher::source, "fill", "");
// H-NEXT:     tilec::SpecKey key;
// H-NEXT:     key.push(options.num_warps);
