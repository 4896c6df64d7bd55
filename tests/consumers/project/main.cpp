// vadd_nvrtc / vadd_nvcc [--interpreter] [--expect-aot]: adds two vectors with the kernel of
// vadd.cpp on the GPU (skipped, exit 77, without one) or in tilec's interpreter, and checks
// the sum. --expect-aot fails if the GPU run used an NVRTC-compiled kernel (the nvcc build).
#include <tilec/interpret.h>
#include <tilec/runtime.h>

#include "vadd.cpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

bool add_on_gpu(const std::vector<float> &x, const std::vector<float> &y, std::vector<float> &out);

int main(int argc, char **argv) {
  bool interpreter = false, expect_aot = false;
  for (int i = 1; i < argc; ++i) {
    interpreter |= std::strcmp(argv[i], "--interpreter") == 0;
    expect_aot |= std::strcmp(argv[i], "--expect-aot") == 0;
  }
  int n = 1000; // four tiles, the last one partial
  std::vector<float> x(n), y(n), out(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = 0.5f * float(i);
  }
  if (interpreter) {
    tilec::interpret::launch(vadd<256>, tilec::Grid{(uint32_t)tilec::cdiv(n, 256)}, x.data(),
                             y.data(), out.data(), n);
  } else {
    std::string why;
    if (!tilec::gpu_available(&why)) {
      std::printf("SKIPPED: no GPU (%s)\n", why.c_str());
      return 77;
    }
    if (!add_on_gpu(x, y, out)) {
      std::printf("FAIL: a CUDA call failed\n");
      return 1;
    }
    // A specialization NVRTC compiled earlier comes from the disk cache: count those too.
    tilec::RuntimeStats s = tilec::runtime_stats();
    if (expect_aot && s.nvrtc_compiles + s.disk_hits != 0) {
      std::printf("FAIL: NVRTC's kernel (compiled or from the disk cache), expected nvcc's\n");
      return 1;
    }
  }
  for (int i = 0; i < n; ++i)
    if (out[i] != 1.5f * float(i)) {
      std::printf("FAIL: out[%d] = %g, want %g\n", i, out[i], 1.5f * float(i));
      return 1;
    }
  std::printf("ok: %d sums (%s)\n", n, interpreter ? "interpreter" : "GPU");
  return 0;
}
