// The tensor launchers of tilec/torch.h on inputs a PyTorch user gets wrong: each must be
// refused with a c10::Error that names the kernel, the parameter and what was expected, and
// nothing may be compiled or launched. Runs without a GPU: "CUDA" tensors are made over host
// memory with at::for_blob and a target device, which is enough for every check (none reads
// the data) and is never launched.
#include <tilec/torch.h>

#include "adapter_kernels.tilec.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

// A tensor that claims to live on cuda:<index>, over host memory the fixture owns. Views
// (t(), narrow) would dispatch to CUDA: give such layouts as strides instead.
class AdapterTest : public ::testing::Test {
protected:
  at::Tensor fake_cuda(std::vector<int64_t> sizes, at::ScalarType type, int index = 0,
                       std::vector<int64_t> strides = {}) {
    int64_t elems = 1; // the extent the sizes and strides reach
    for (size_t i = 0; i < sizes.size(); ++i)
      elems = strides.empty() ? elems * sizes[i] : elems + (sizes[i] - 1) * strides[i];
    auto &buf = buffers_.emplace_back(size_t(elems) * 8 + 16);
    at::Device device(at::kCUDA, static_cast<c10::DeviceIndex>(index));
    auto options = at::TensorOptions().dtype(type).device(device);
    if (strides.empty())
      return at::for_blob(buf.data(), sizes).target_device(device).options(options).make_tensor();
    return at::for_blob(buf.data(), sizes)
        .strides(strides)
        .target_device(device)
        .options(options)
        .make_tensor();
  }

  // Runs f, which must throw E with every one of `parts` in its message.
  template <class E = c10::Error, class F>
  void expect_refused(F &&f, std::vector<std::string> parts) {
    try {
      f();
      ADD_FAILURE() << "no error";
    } catch (const E &e) {
      std::string msg = e.what_without_backtrace();
      for (auto &p : parts)
        EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    }
  }

  void TearDown() override {
    tilec::RuntimeStats s = tilec::runtime_stats();
    EXPECT_EQ(s.nvrtc_compiles + s.disk_hits + s.memory_hits, 0u) << "something was launched";
  }

  std::vector<std::vector<char>> buffers_;
};

TEST_F(AdapterTest, CpuTensorIsRefused) {
  at::Tensor in = at::ones({4, 64});
  at::Tensor out = at::empty({4, 64});
  at::Tensor w = at::ones({64}, at::kHalf);
  expect_refused([&] { scale_rows<64>(tilec::Grid{4}, out, in, w, 64, 64, 2.0f); },
                 {"scale_rows: argument 'in' must be a CUDA tensor, got one on cpu"});
}

TEST_F(AdapterTest, WrongElementTypeIsATypeError) {
  at::Tensor out = fake_cuda({4, 64}, at::kFloat);
  at::Tensor in = fake_cuda({4, 64}, at::kFloat);
  at::Tensor w = fake_cuda({64}, at::kFloat); // the kernel reads tl::half
  expect_refused<c10::TypeError>([&] { scale_rows<64>(tilec::Grid{4}, out, in, w, 64, 64, 2.0f); },
                                 {"scale_rows: argument 'w' must be a tensor of Half, got Float"});
}

TEST_F(AdapterTest, TypeParameterDecidesTheElementType) {
  at::Tensor dst = fake_cuda({100}, at::kDouble);
  at::Tensor src = fake_cuda({100}, at::kDouble);
  expect_refused<c10::TypeError>([&] { copy_t<float, 128>(tilec::Grid{1}, dst, src, 100); },
                                 {"copy_t: argument 'src' must be a tensor of Float, got Double"});
}

TEST_F(AdapterTest, NonContiguousIsRefused) {
  at::Tensor out = fake_cuda({4, 64}, at::kFloat, 0, {1, 4}); // a transposed [64, 4]
  at::Tensor in = fake_cuda({4, 64}, at::kFloat);
  at::Tensor w = fake_cuda({64}, at::kHalf);
  expect_refused(
      [&] { scale_rows<64>(tilec::Grid{4}, out, in, w, 64, 64, 2.0f); },
      {"scale_rows: argument 'out' must be contiguous", "strides [1, 4]", "tilec::torch::rows()"});
}

TEST_F(AdapterTest, RowsTakesARowStrideButNotAStridedRow) {
  at::Tensor out = fake_cuda({4, 64}, at::kFloat);
  at::Tensor w = fake_cuda({64}, at::kHalf);
  // Every other column: the last dimension is not dense.
  at::Tensor cols = fake_cuda({4, 64}, at::kFloat, 0, {128, 2});
  expect_refused(
      [&] { scale_rows<64>(tilec::Grid{4}, out, tilec::torch::rows(cols), w, 128, 64, 2.0f); },
      {"scale_rows: argument 'in' must have a dense last dimension (stride 1)"});
  // The first 64 columns of [4, 100] rows pass every check and reach the launch, which a
  // machine without LibTorch's CUDA part refuses. (Where it has it, the fake tensors' host
  // memory must not reach a GPU.)
  if (TILEC_TORCH_CUDA)
    GTEST_SKIP() << "the rest launches, and fake CUDA tensors hold host memory";
  at::Tensor wide = fake_cuda({4, 64}, at::kFloat, 0, {100, 1});
  expect_refused(
      [&] { scale_rows<64>(tilec::Grid{4}, out, tilec::torch::rows(wide), w, 100, 64, 2.0f); },
      {"scale_rows: cannot launch on cuda:0"});
}

TEST_F(AdapterTest, MixedDevicesAreRefused) {
  at::Tensor out = fake_cuda({4, 64}, at::kFloat, 0);
  at::Tensor in = fake_cuda({4, 64}, at::kFloat, 1);
  at::Tensor w = fake_cuda({64}, at::kHalf, 0);
  expect_refused(
      [&] { scale_rows<64>(tilec::Grid{4}, out, in, w, 64, 64, 2.0f); },
      {"scale_rows: argument 'w' is on cuda:0 but argument 'in' is on cuda:1", "one device"});
}

TEST_F(AdapterTest, UndefinedTensorIsRefused) {
  at::Tensor out = fake_cuda({4, 64}, at::kFloat);
  at::Tensor w = fake_cuda({64}, at::kHalf);
  expect_refused([&] { scale_rows<64>(tilec::Grid{4}, out, at::Tensor(), w, 64, 64, 2.0f); },
                 {"scale_rows: argument 'in' is an undefined tensor"});
}

TEST_F(AdapterTest, AutotunedLauncherChecksToo) {
  at::Tensor dst = at::empty({100});
  at::Tensor src = at::empty({100});
  expect_refused([&] { copy_t_autotuned<float>(tilec::Grid{1}, dst, src, 100); },
                 {"copy_t: argument 'src' must be a CUDA tensor"});
}

#if !TILEC_TORCH_CUDA
// Good tensors pass every check; without LibTorch's CUDA part the launch is refused cleanly.
TEST_F(AdapterTest, GoodTensorsReachTheLaunch) {
  at::Tensor out = fake_cuda({4, 64}, at::kFloat);
  at::Tensor in = fake_cuda({4, 64}, at::kFloat);
  at::Tensor w = fake_cuda({64}, at::kHalf);
  expect_refused([&] { scale_rows<64>(tilec::Grid{4}, out, in, w, 64, 64, 2.0f); },
                 {"scale_rows: cannot launch on cuda:0", "TILEC_TORCH_CUDA=0"});
}
#endif

} // namespace
