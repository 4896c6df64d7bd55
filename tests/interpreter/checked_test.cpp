// The checked interpreter: buffers launched as tilec::interpret::checked(...) turn every
// access outside them into tl::out_of_bounds_error naming the kernel line, the program, the
// lane, the element and the buffer; correctly masked kernels run as before.
#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <numeric>
#include <span>
#include <string>
#include <vector>

using tilec::interpret::checked;

namespace {

// The seed's first bug: the load has no mask, so the last program reads past the end.
template <int BLOCK> TILEC_KERNEL void forgot_load_mask(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs);
  tl::store(out + offs, v * 2.0f, offs < n);
}
constexpr int kForgotLoadLine = __LINE__ - 3;

// Rows are masked, columns are not: rows 0 and 1 spill into the next row (inside the
// buffer, so not out of bounds), the last row spills past the end.
template <int BLOCK_M, int BLOCK_N> TILEC_KERNEL void forgot_column_mask(float *out, int m, int n) {
  auto rows = tl::program_id(0) * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto cols = tl::arange<0, BLOCK_N>();
  auto ptrs = out + tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols);
  tl::store(ptrs, 1.0f, tl::expand_dims<1>(rows < m));
}
constexpr int kForgotColumnLine = __LINE__ - 2;

template <int BLOCK> TILEC_KERNEL void reads_one_before(const int *x, int *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs - 1, offs < n), offs < n);
}

template <int BLOCK> TILEC_KERNEL void counts_unmasked(int *counts, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::atomic_add(counts + offs % (n + 1), 1);
}

template <int BLOCK>
TILEC_KERNEL void add_kernel(const float *x, const float *y, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(out + offs, tl::load(x + offs, mask) + tl::load(y + offs, mask), mask);
}

template <int BLOCK> TILEC_KERNEL void scale_in_place(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, tl::load(x + offs, offs < n) * 3.0f, offs < n);
}

tilec::Grid grid_for(int n, int block) { return tilec::Grid{uint32_t((n + block - 1) / block)}; }

// The message of the out_of_bounds_error `launch` throws ("" if it throws none).
template <class Launch> std::string error_of(Launch launch) {
  try {
    launch();
  } catch (const tl::out_of_bounds_error &e) {
    return e.what();
  }
  return "";
}

std::string this_file_line(int line) { return "checked_test.cpp:" + std::to_string(line) + ":"; }

} // namespace

TEST(Checked, ForgottenLoadMaskIsPinpointed) {
  const int n = 1000;
  std::vector<float> x(n, 1.5f), out(n, 0.0f);
  std::string err = error_of([&] {
    tilec::interpret::launch(forgot_load_mask<256>, grid_for(n, 256), checked(x, "x"),
                             checked(out, "out"), n);
  });
  EXPECT_NE(err.find(this_file_line(kForgotLoadLine) + " tl::load out of bounds"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("forgot_load_mask"), std::string::npos) << err;
  EXPECT_NE(err.find("program (3, 0, 0), lane (232) touches element 1000 of buffer 'x' "
                     "(1000 elements, valid 0..999)"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("mask this lane off (e.g. tl::load(p + offs, offs < n))"), std::string::npos)
      << err;
  // What the programs before the faulty one stored is copied back, as a GPU would keep it.
  EXPECT_EQ(out[0], 3.0f);
  EXPECT_EQ(out[767], 3.0f);
  EXPECT_EQ(out[768], 0.0f);
}

TEST(Checked, ForgottenColumnMaskOfATileIsPinpointed) {
  const int m = 3, n = 100;
  std::vector<float> out(size_t(m) * n, 0.0f);
  std::string err = error_of([&] {
    tilec::interpret::launch(forgot_column_mask<4, 128>, tilec::Grid{1}, checked(out, "out"), m, n);
  });
  EXPECT_NE(err.find(this_file_line(kForgotColumnLine) + " tl::store out of bounds"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("program (0, 0, 0), lane (2, 100) touches element 300 of buffer 'out' "
                     "(300 elements"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("e.g. tl::store(p + offs, v, offs < n)"), std::string::npos) << err;
}

TEST(Checked, AccessBeforeTheStartNamesANegativeElement) {
  const int n = 64;
  std::vector<int> x(n, 7), out(n, 0);
  std::string err = error_of([&] {
    tilec::interpret::launch(reads_one_before<64>, grid_for(n, 64), checked(x), checked(out), n);
  });
  // Unnamed buffers are named by their position among the launch arguments.
  EXPECT_NE(err.find("lane (0) touches element -1 of buffer 'argument 1' (64 elements"),
            std::string::npos)
      << err;
}

TEST(Checked, UnmaskedAtomicIsPinpointed) {
  const int n = 10;
  std::vector<int> counts(n, 0);
  std::string err = error_of([&] {
    tilec::interpret::launch(counts_unmasked<16>, tilec::Grid{1}, checked(counts, "counts"), n);
  });
  EXPECT_NE(err.find("tl::atomic out of bounds"), std::string::npos) << err;
  EXPECT_NE(err.find("lane (10) touches element 10 of buffer 'counts'"), std::string::npos) << err;
}

TEST(Checked, CorrectlyMaskedKernelPasses) {
  for (int n : {1, 1000, 4099}) {
    std::vector<float> x(n), y(n), out(n, -1.0f);
    std::iota(x.begin(), x.end(), 0.0f);
    std::iota(y.begin(), y.end(), 10.0f);
    const std::vector<float> &cx = x; // const buffers are checked too, never copied back
    tilec::interpret::launch(add_kernel<1024>, grid_for(n, 1024), checked(cx, "x"),
                             checked(std::span<const float>(y), "y"),
                             checked(out.data(), out.size(), "out"), n);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(out[i], x[i] + y[i]) << "n " << n << ", element " << i;
  }
}

TEST(Checked, OneBufferPassedTwiceSharesOneCopy) {
  std::vector<float> data(300, 2.0f);
  tilec::interpret::launch(scale_in_place<128>, grid_for(300, 128), checked(data, "in"),
                           checked(data, "out"), 300);
  for (float v : data)
    ASSERT_EQ(v, 6.0f);
}

template <bool HAS_B> TILEC_KERNEL void store_b_or_zero(float *y, const float *b) {
  if constexpr (HAS_B)
    tl::store(y, tl::load(b));
  else
    tl::store(y, 0.0f);
}

TEST(Checked, AnAbsentTensorIsANullBufferOfNoElements) {
  // Triton's None for an optional tensor: null and empty. Nothing is copied back to it (a
  // memcpy from or to null is undefined even for 0 bytes; UBSan reports it).
  float y = 1.0f;
  float *none = nullptr;
  tilec::interpret::launch(store_b_or_zero<false>, tilec::Grid{1}, checked(&y, 1, "y"),
                           checked(none, 0, "b"));
  EXPECT_EQ(y, 0.0f);
}

TEST(Checked, OverlappingBuffersAreRefused) {
  std::vector<float> data(300, 2.0f);
  EXPECT_THROW(tilec::interpret::launch(scale_in_place<128>, grid_for(200, 128),
                                        checked(data.data(), 200, "a"),
                                        checked(data.data() + 100, 200, "b"), 200),
               std::invalid_argument);
}

TEST(Checked, UncheckedLaunchIsUnchangedAndChecksNothing) {
  // Masked-off lanes are not touched, so this passes with or without checks; a plain launch
  // after a failed checked one must not see the old buffers.
  std::vector<float> x(1000, 1.0f), out(1000, 0.0f);
  EXPECT_NE(error_of([&] {
              tilec::interpret::launch(forgot_load_mask<256>, grid_for(1000, 256), checked(x, "x"),
                                       checked(out, "out"), 1000);
            }),
            "");
  EXPECT_EQ(tl::detail::checked_regions(), nullptr);
  std::vector<float> padded(1024, 1.0f);
  tilec::interpret::launch(forgot_load_mask<256>, grid_for(1000, 256), padded.data(), out.data(),
                           1000);
  EXPECT_EQ(out[999], 2.0f);
}
