// The launchers on PyTorch tensors (tilec/torch.h): one overload per launcher and autotuned
// launcher, inside #ifdef TILEC_TORCH_ADAPTER, pointer parameters as tensors checked by name.
#include <tilec/tl.h>

// A type parameter, an fp16 input and a parameter that takes the overload's local name.
template <class T, int BLOCK>
TILEC_KERNEL void scale(T *out, const T *x, const tl::half *w, int n, float launch) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::cast<float>(tl::load(x + offs, mask)) * tl::cast<float>(tl::load(w + offs, mask));
  tl::store(out + offs, tl::cast<T>(v * launch), mask);
}

// No pointers: no tensor overload.
TILEC_KERNEL void spin(int n) {
  int i = 0;
  while (i < n)
    i += 1;
}

TILEC_AUTOTUNE(scale) = {
    .configs = {{.values = {{"BLOCK", 256}}, .num_warps = 2}},
    .key = {"n"},
};

// H:        // Launchers on PyTorch tensors, declared when <tilec/torch.h> comes first.
// H-NEXT:   #ifdef TILEC_TORCH_ADAPTER
// H-LABEL:  /// scale on tensors: see tilec/torch.h.
// H-NEXT:   template <class T, int BLOCK>
// H-NEXT:   inline void scale(tilec::Grid grid, tilec::torch::TensorArg out, tilec::torch::TensorArg x, tilec::torch::TensorArg w, int n, float launch,
// H-NEXT:       const tilec::LaunchOptions& options = {}) {
// H-NEXT:     tilec::torch::Launch launch_1("scale", {
// H-NEXT:         tilec::torch::arg<T>(out, "out"),
// H-NEXT:         tilec::torch::arg<const T>(x, "x"),
// H-NEXT:         tilec::torch::arg<const tl::half>(w, "w")});
// H-NEXT:     scale<T, BLOCK>(grid, launch_1.stream(), launch_1.data<T>(0), launch_1.data<const T>(1), launch_1.data<const tl::half>(2), n, launch, options);
// H-NEXT:   }
// H-NOT:    inline void spin(tilec::Grid grid, int n
// H-LABEL:  /// scale_autotuned on tensors: see tilec/torch.h.
// H-NEXT:   template <class T>
// H-NEXT:   inline void scale_autotuned(tilec::GridFn grid, tilec::torch::TensorArg out, tilec::torch::TensorArg x, tilec::torch::TensorArg w, int n, float launch) {
// H-NEXT:     tilec::torch::Launch launch_1("scale", {
// H:          scale_autotuned<T>(grid, launch_1.stream(), launch_1.data<T>(0), launch_1.data<const T>(1), launch_1.data<const tl::half>(2), n, launch);
// H-NEXT:   }
// H-NEXT:   #endif // TILEC_TORCH_ADAPTER
