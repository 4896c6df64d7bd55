// The runtime on a real GPU: hand-written kernels with the generated-code signature,
// launched through launchers shaped like the ones the translator emits.
#include "gpu_test_support.h"

#include <tilec/runtime.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>

namespace {

namespace gen {
inline constexpr tilec::Source source = {"runtime_gpu_test.cu", R"tilec_cuda(
template <int BLOCK, int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void add_kernel(const float* x, const float* y, float* out, int n) {
  const int end = min((blockIdx.x + 1) * BLOCK, n);
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < end; i += NUM_WARPS * 32)
    out[i] = x[i] + y[i];
}

template <int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void facts_kernel(int* out, int n) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    out[0] = NUM_WARPS;
    out[1] = NUM_STAGES;
    out[2] = int(DIV16);
    out[3] = n;
  }
}

// Reverses each block's ELEMS floats through dynamic shared memory (ELEMS * 4 bytes).
template <int ELEMS, int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void reverse_kernel(const float* x, float* out) {
  extern __shared__ float smem[];
  const float* in = x + size_t(blockIdx.x) * ELEMS;
  for (int i = threadIdx.x; i < ELEMS; i += blockDim.x)
    smem[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < ELEMS; i += blockDim.x)
    out[size_t(blockIdx.x) * ELEMS + i] = smem[ELEMS - 1 - i];
}

template <int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void empty_kernel(int n) {}

// Declares its block size as generated kernels do.
template <int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void __launch_bounds__(NUM_WARPS * 32) block_size_kernel(int* out) {
  if (threadIdx.x == 0)
    out[blockIdx.x] = blockDim.x;
}
)tilec_cuda"};
} // namespace gen

// Launchers written the way the translator writes them.
template <int BLOCK>
void add_kernel(tilec::Grid grid, tilec::Stream stream, const float *x, const float *y, float *out,
                int n, const tilec::LaunchOptions &options = {}) {
  static tilec::Kernel kernel(gen::source, "add_kernel", "i");
  tilec::SpecKey key;
  key.push(BLOCK);
  key.push(options.num_warps);
  key.push(options.num_stages);
  key.push(tilec::div16_mask(x, y, out, n));
  void *params[] = {&x, &y, &out, &n};
  kernel.launch(key, grid, options.num_warps * 32, /*shared_bytes=*/0, stream, params);
}

void facts_kernel(tilec::Grid grid, tilec::Stream stream, int *out, int n,
                  const tilec::LaunchOptions &options = {}) {
  static tilec::Kernel kernel(gen::source, "facts_kernel", "");
  tilec::SpecKey key;
  key.push(options.num_warps);
  key.push(options.num_stages);
  key.push(tilec::div16_mask(out, n));
  void *params[] = {&out, &n};
  kernel.launch(key, grid, options.num_warps * 32, 0, stream, params);
}

template <int ELEMS>
void reverse_kernel(tilec::Grid grid, tilec::Stream stream, const float *x, float *out,
                    size_t shared_bytes, const tilec::LaunchOptions &options = {}) {
  static tilec::Kernel kernel(gen::source, "reverse_kernel", "i");
  tilec::SpecKey key;
  key.push(ELEMS);
  key.push(options.num_warps);
  key.push(options.num_stages);
  key.push(tilec::div16_mask(x, out));
  void *params[] = {&x, &out};
  kernel.launch(key, grid, options.num_warps * 32, shared_bytes, stream, params);
}

tilec::Kernel &empty_kernel_object() {
  static tilec::Kernel kernel(gen::source, "empty_kernel", "");
  return kernel;
}

// Each test gets its own cache folder so compile/disk-hit counts are predictable.
class GpuRuntime : public tilec_test::FreshCacheTest {};

std::vector<float> iota_floats(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = float(i % 1000) * scale;
  return v;
}

void check_add(int n, const tilec::LaunchOptions &options) {
  using tilec_test::DeviceBuffer;
  DeviceBuffer x(n * sizeof(float)), y(n * sizeof(float)), out(n * sizeof(float));
  auto hx = iota_floats(n, 0.5f), hy = iota_floats(n, -0.25f);
  x.upload(hx);
  y.upload(hy);
  out.fill(0xff); // NaN: any element the kernel skips fails the comparison
  add_kernel<1024>(tilec::Grid{uint32_t(tilec::cdiv(n, 1024))}, nullptr, x.as<float>(),
                   y.as<float>(), out.as<float>(), n, options);
  tilec_test::synchronize();
  auto h = out.download<float>();
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (!(h[i] == hx[i] + hy[i]) && bad++ < 5)
      ADD_FAILURE() << "out[" << i << "] = " << h[i] << ", expected " << hx[i] + hy[i];
  EXPECT_EQ(bad, 0);
}

} // namespace

TEST_F(GpuRuntime, VectorAddMatchesHost) {
  REQUIRE_GPU();
  check_add(100003, {}); // n not divisible by 16: a different DIV16 specialization
  check_add(1 << 20, {.num_warps = 8, .num_stages = 2});
}

TEST_F(GpuRuntime, CompilesOnceThenServesFromMemory) {
  REQUIRE_GPU();
  auto s0 = tilec::runtime_stats();
  check_add(4096, {});
  auto s1 = tilec::runtime_stats();
  EXPECT_EQ(s1.nvrtc_compiles, s0.nvrtc_compiles + 1);
  check_add(4096, {});
  auto s2 = tilec::runtime_stats();
  EXPECT_EQ(s2.nvrtc_compiles, s1.nvrtc_compiles);
  EXPECT_EQ(s2.memory_hits, s1.memory_hits + 1);
}

TEST_F(GpuRuntime, ClearMemoryCacheReloadsFromDisk) {
  REQUIRE_GPU();
  check_add(4096, {});
  tilec::clear_memory_cache();
  auto s0 = tilec::runtime_stats();
  check_add(4096, {});
  auto s1 = tilec::runtime_stats();
  EXPECT_EQ(s1.disk_hits, s0.disk_hits + 1);
  EXPECT_EQ(s1.nvrtc_compiles, s0.nvrtc_compiles);
}

TEST_F(GpuRuntime, SpecializationReachesTheKernel) {
  REQUIRE_GPU();
  tilec_test::DeviceBuffer out(64);
  out.fill(0xff);
  facts_kernel(tilec::Grid{1}, nullptr, out.as<int>(), 48, {.num_warps = 2, .num_stages = 5});
  tilec_test::synchronize();
  auto h = out.download<int>();
  EXPECT_EQ(h[0], 2);
  EXPECT_EQ(h[1], 5);
  EXPECT_EQ(h[2], 3) << "cuMemAlloc memory is 16-byte aligned and 48 % 16 == 0";
  EXPECT_EQ(h[3], 48);
}

TEST_F(GpuRuntime, BadLaunchNamesTheKernel) {
  REQUIRE_GPU();
  tilec_test::DeviceBuffer buf(4096 * sizeof(float));
  try {
    // 64 warps = 2048 threads per block: more than any GPU allows.
    add_kernel<1024>(tilec::Grid{4}, nullptr, buf.as<float>(), buf.as<float>(), buf.as<float>(),
                     4096, {.num_warps = 64});
    FAIL() << "expected tilec::Error";
  } catch (const tilec::Error &e) {
    EXPECT_NE(std::string(e.what()).find("add_kernel<1024, 64, 3, 15u>"), std::string::npos)
        << e.what();
  }
}

// The runtime compiles a __launch_bounds__(N) kernel for blocks of exactly N threads (.reqntid,
// ptx_link.h): N threads run, fewer are refused with an error that says why.
TEST_F(GpuRuntime, LaunchBoundsAreTheExactBlockSize) {
  REQUIRE_GPU();
  static tilec::Kernel kernel(gen::source, "block_size_kernel", "");
  tilec::SpecKey key;
  for (int64_t v : {4, 1, 0})
    key.push(v);
  tilec_test::DeviceBuffer out(2 * sizeof(int));
  out.fill(0xff);
  int *p = out.as<int>();
  void *params[] = {&p};
  kernel.launch(key, tilec::Grid{2}, 128, 0, nullptr, params);
  tilec_test::synchronize();
  auto h = out.download<int>();
  EXPECT_EQ(h[0], 128);
  EXPECT_EQ(h[1], 128);
  try {
    kernel.launch(key, tilec::Grid{2}, 64, 0, nullptr, params);
    FAIL() << "a 64-thread launch of a kernel compiled for exactly 128 threads ran";
  } catch (const tilec::Error &e) {
    EXPECT_NE(std::string(e.what()).find("blocks of exactly N threads"), std::string::npos)
        << e.what();
  }
}

TEST_F(GpuRuntime, DynamicSharedMemoryAbove48KB) {
  REQUIRE_GPU();
  constexpr int kElems = 100 * 1024 / 4; // 100 KB per block
  constexpr int kBlocks = 8;
  tilec_test::DeviceBuffer x(kBlocks * kElems * sizeof(float)),
      out(kBlocks * kElems * sizeof(float));
  auto hx = iota_floats(size_t(kBlocks) * kElems, 1.0f);
  x.upload(hx);
  out.fill(0xff);
  reverse_kernel<kElems>(tilec::Grid{kBlocks}, nullptr, x.as<float>(), out.as<float>(),
                         kElems * sizeof(float));
  tilec_test::synchronize();
  auto h = out.download<float>();
  int bad = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int i = 0; i < kElems; ++i) {
      float want = hx[size_t(b) * kElems + (kElems - 1 - i)];
      if (!(h[size_t(b) * kElems + i] == want) && bad++ < 5)
        ADD_FAILURE() << "block " << b << " element " << i << ": " << h[size_t(b) * kElems + i]
                      << ", expected " << want;
    }
  EXPECT_EQ(bad, 0);
}

TEST_F(GpuRuntime, TooMuchSharedMemoryNamesTheKernel) {
  REQUIRE_GPU();
  constexpr int kElems = 1024;
  tilec_test::DeviceBuffer x(kElems * sizeof(float)), out(kElems * sizeof(float));
  try {
    reverse_kernel<kElems>(tilec::Grid{1}, nullptr, x.as<float>(), out.as<float>(),
                           size_t(1) << 30);
    FAIL() << "expected tilec::Error";
  } catch (const tilec::Error &e) {
    EXPECT_NE(std::string(e.what()).find("reverse_kernel<1024, 4, 3, 3u>"), std::string::npos)
        << e.what();
  }
}

TEST_F(GpuRuntime, FunctionReturnsAHandle) {
  REQUIRE_GPU();
  tilec::SpecKey key;
  for (int64_t v : {4, 3, 0})
    key.push(v);
  EXPECT_NE(empty_kernel_object().function(key), nullptr);
}

// Launch overhead of a memory hit, end to end (goal: <= 3 us over a raw cuLaunchKernel).
TEST_F(GpuRuntime, LaunchOverhead) {
  REQUIRE_GPU();
  tilec::Kernel &kernel = empty_kernel_object();
  tilec::SpecKey key;
  for (int64_t v : {1, 1, 0})
    key.push(v);
  int n = 0;
  void *params[] = {&n};
  kernel.launch(key, tilec::Grid{1}, 32, 0, nullptr, params); // compile
  tilec_test::synchronize();
  constexpr int kLaunches = 20000;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kLaunches; ++i)
    kernel.launch(key, tilec::Grid{1}, 32, 0, nullptr, params);
  tilec_test::synchronize();
  double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
      kLaunches;
  std::printf("tilec launch: %.2f us per launch (%d launches, memory hits)\n", us, kLaunches);
  RecordProperty("us_per_launch", std::to_string(us));
  EXPECT_LT(us, 50.0) << "launch path is far slower than cuLaunchKernel";
}
