// The small user kernels (kernels/user_small.cpp) in the interpreter against double-precision
// loops, on sizes that are not multiples of the blocks, outputs poisoned (and a guard past the
// end that must stay poison).
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/user_small.cpp"

using namespace corpus;

TEST(CorpusUserSmall, RowCumsum) {
  const int rows = 37, cols = 1000, stride = 1003;
  auto x = uniform(size_t(rows) * stride, -1, 1, 41);
  auto y = poisoned(x.size() + 8);
  tilec::interpret::launch(row_cumsum<float, 4, 1024>, tilec::Grid{(rows + 3) / 4}, x.data(),
                           y.data(), rows, cols, stride);
  for (int r = 0; r < rows; ++r) {
    double acc = 0;
    for (int c = 0; c < stride; ++c) {
      const size_t i = size_t(r) * stride + c;
      if (c >= cols) {
        ASSERT_TRUE(untouched(y[i])) << "padding written at " << i;
        continue;
      }
      acc += x[i];
      ASSERT_TRUE(close(y[i], acc, 1e-4, 1e-5, "y", i));
    }
  }
  for (size_t i = x.size(); i < y.size(); ++i)
    ASSERT_TRUE(untouched(y[i])) << "guard written at " << i;
}

TEST(CorpusUserSmall, ColumnSumAtomic) {
  const int M = 333, N = 517;
  auto x = uniform(size_t(M) * N, -1, 1, 42);
  std::vector<float> out(N + 4, 0.0f);
  out[N] = out[N + 1] = out[N + 2] = out[N + 3] = -5.0f; // guard
  tilec::interpret::launch(column_sum_atomic<32, 128>, tilec::Grid{(M + 31) / 32, (N + 127) / 128},
                           x.data(), out.data(), M, N);
  for (int c = 0; c < N; ++c) {
    double want = 0;
    for (int r = 0; r < M; ++r)
      want += x[size_t(r) * N + c];
    ASSERT_TRUE(close(out[c], want, 1e-4, 1e-5, "out", c));
  }
  for (int c = N; c < N + 4; ++c)
    ASSERT_EQ(out[c], -5.0f) << "guard written at " << c;
}

TEST(CorpusUserSmall, Transpose) {
  const int M = 130, N = 75;
  auto x = uniform(size_t(M) * N, -1, 1, 43);
  auto y = poisoned(size_t(M) * N + 8);
  tilec::interpret::launch(transpose<float, 64, 32>, tilec::Grid{(M + 63) / 64, (N + 31) / 32},
                           x.data(), y.data(), M, N);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c)
      ASSERT_EQ(y[size_t(c) * M + r], x[size_t(r) * N + c]) << r << "," << c;
  for (size_t i = size_t(M) * N; i < y.size(); ++i)
    ASSERT_TRUE(untouched(y[i])) << "guard written at " << i;
}

TEST(CorpusUserSmall, BiasGelu) {
  const int M = 45, N = 300;
  auto xf = uniform(size_t(M) * N, -4, 4, 44), bf = uniform(N, -1, 1, 45);
  std::vector<tl::half> x(xf.size()), bias(N), y(xf.size() + 8);
  for (size_t i = 0; i < xf.size(); ++i)
    x[i] = tl::half(xf[i]);
  for (int i = 0; i < N; ++i)
    bias[i] = tl::half(bf[i]);
  std::memset(static_cast<void *>(y.data()), 0xff, y.size() * sizeof(tl::half));
  tilec::interpret::launch(bias_gelu<16, 256>, tilec::Grid{(M + 15) / 16, (N + 255) / 256},
                           x.data(), bias.data(), y.data(), M, N);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      const size_t i = size_t(r) * N + c;
      const double v = double(float(x[i])) + double(float(bias[c]));
      const double want =
          0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
      ASSERT_TRUE(close(float(y[i]), want, 2e-3, 2e-3, "y", i)); // half rounding
    }
  for (size_t i = xf.size(); i < y.size(); ++i) {
    uint16_t bits;
    std::memcpy(&bits, &y[i], 2);
    ASSERT_EQ(bits, 0xffff) << "guard written at " << i;
  }
}
