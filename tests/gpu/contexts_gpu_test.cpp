// Launches follow the context current on the calling thread. With one GPU, a second context
// on the same device stands in for a second GPU: functions loaded in one context cannot be
// launched in another, so each context needs its own module (from the same cubin: nothing is
// compiled twice) and its own autotuning choices.
#include "gpu_test_support.h"

#include <tilec/runtime.h>

#include <gtest/gtest.h>

#include <cuda.h>
#include <dlfcn.h>

#include <atomic>
#include <thread>
#include <vector>

namespace {

namespace gen {
inline constexpr tilec::Source source = {"contexts_gpu_test.cu", R"tilec_cuda(
template <int BLOCK, int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void axpy_kernel(const float* x, float* y, float a, int n) {
  const int end = min((blockIdx.x + 1) * BLOCK, n);
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < end; i += NUM_WARPS * 32)
    y[i] = a * x[i] + y[i];
}
)tilec_cuda"};
} // namespace gen

tilec::Kernel &axpy_object() {
  static tilec::Kernel kernel(gen::source, "axpy_kernel", "i");
  return kernel;
}

void axpy(const float *x, float *y, float a, int n) {
  tilec::SpecKey key;
  key.push(1024);
  key.push(4);
  key.push(3);
  key.push(tilec::div16_mask(x, y, a, n));
  void *params[] = {&x, &y, &a, &n};
  axpy_object().launch(key, tilec::Grid{uint32_t(tilec::cdiv(n, 1024))}, 128, 0, nullptr, params);
}

/// y = a * x + y on the current context's device, checked against the host.
void check_axpy(int n, float a) {
  using tilec_test::DeviceBuffer;
  DeviceBuffer x(n * sizeof(float)), y(n * sizeof(float));
  std::vector<float> hx(static_cast<size_t>(n)), hy(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    hx[size_t(i)] = float(i % 97), hy[size_t(i)] = float(i % 13) - 6;
  x.upload(hx);
  y.upload(hy);
  axpy(x.as<float>(), y.as<float>(), a, n);
  tilec_test::synchronize();
  auto got = y.download<float>();
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (got[size_t(i)] != a * hx[size_t(i)] + hy[size_t(i)] && bad++ < 3)
      ADD_FAILURE() << "y[" << i << "] = " << got[size_t(i)];
  EXPECT_EQ(bad, 0);
}

/// A second context on device 0, made with the driver API (the runtime has no use for one).
class SecondContext {
public:
  SecondContext() {
    lib_ = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib_)
      return;
    using Create = CUresult (*)(CUcontext *, unsigned, CUdevice);
    using Current = CUresult (*)(CUcontext *);
    using Set = CUresult (*)(CUcontext);
    create_ = reinterpret_cast<Create>(dlsym(lib_, "cuCtxCreate_v2"));
    destroy_ = reinterpret_cast<Set>(dlsym(lib_, "cuCtxDestroy_v2"));
    get_ = reinterpret_cast<Current>(dlsym(lib_, "cuCtxGetCurrent"));
    set_ = reinterpret_cast<Set>(dlsym(lib_, "cuCtxSetCurrent"));
    if (!create_ || !destroy_ || !get_ || !set_)
      return;
    get_(&primary_);
    if (create_(&second_, 0, 0) != CUDA_SUCCESS) // also makes it current
      second_ = nullptr;
    set_(primary_);
  }
  ~SecondContext() {
    if (second_) {
      set_(primary_);
      tilec::clear_memory_cache(); // unloads its modules while it still exists
      destroy_(second_);
    }
    if (lib_)
      dlclose(lib_);
  }
  bool ok() const { return second_ != nullptr && primary_ != nullptr; }
  void use_primary() const { ASSERT_EQ(set_(primary_), CUDA_SUCCESS); }
  void use_second() const { ASSERT_EQ(set_(second_), CUDA_SUCCESS); }
  void use(CUcontext c) const { ASSERT_EQ(set_(c), CUDA_SUCCESS); }
  CUcontext primary() const { return primary_; }
  CUcontext second() const { return second_; }

private:
  void *lib_ = nullptr;
  CUresult (*create_)(CUcontext *, unsigned, CUdevice) = nullptr;
  CUresult (*destroy_)(CUcontext) = nullptr;
  CUresult (*get_)(CUcontext *) = nullptr;
  CUresult (*set_)(CUcontext) = nullptr;
  CUcontext primary_ = nullptr, second_ = nullptr;
};

class GpuContexts : public tilec_test::FreshCacheTest {};

} // namespace

TEST_F(GpuContexts, EachContextLoadsItsOwnModuleFromOneCompile) {
  REQUIRE_GPU();
  check_axpy(1000, 1.0f); // makes the primary context current and loads the driver
  SecondContext ctx;
  ASSERT_TRUE(ctx.ok()) << "could not create a second context";
  auto s0 = tilec::runtime_stats();
  ctx.use_second();
  check_axpy(5001, 2.0f); // another context: a new module, from the disk cache
  auto s1 = tilec::runtime_stats();
  EXPECT_EQ(s1.nvrtc_compiles, s0.nvrtc_compiles);
  EXPECT_EQ(s1.disk_hits, s0.disk_hits + 1);
  ctx.use_primary();
  check_axpy(5001, 3.0f); // back: the first context's function, from memory
  auto s2 = tilec::runtime_stats();
  EXPECT_EQ(s2.disk_hits, s1.disk_hits);
  EXPECT_EQ(s2.memory_hits, s1.memory_hits + 1);
}

// Eight threads launch at once, half of them in each context, each thread many times.
TEST_F(GpuContexts, ThreadsLaunchInTheirOwnContextsAtOnce) {
  REQUIRE_GPU();
  check_axpy(1000, 1.0f);
  SecondContext ctx;
  ASSERT_TRUE(ctx.ok()) << "could not create a second context";
  std::vector<std::thread> threads;
  std::atomic<int> done{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      ctx.use(t % 2 ? ctx.second() : ctx.primary());
      for (int i = 0; i < 10; ++i)
        check_axpy(3000 + 17 * t, float(t + i));
      ++done;
    });
  for (auto &th : threads)
    th.join();
  EXPECT_EQ(done.load(), 8);
  EXPECT_EQ(tilec::runtime_stats().nvrtc_compiles > 0, true);
}
