// Argmax along the middle axis (kernels/flaggems_argmax.cpp) in the interpreter against a
// plain loop, with N not a multiple of the block, M not a multiple of the rows per program,
// K > 1 (strided rows) and ties that the first index must win, including ties between chunks.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/flaggems_argmax.cpp"

using namespace corpus;

TEST(CorpusReductions, ArgmaxMiddleAxis) {
  const int M = 37, N = 1000, K = 3;
  auto x = uniform(size_t(M) * N * K, -1, 1, 31);
  // Row m (at k = m % K) has its maximum 2 at two places, in different chunks for odd m.
  for (int m = 0; m < M; ++m) {
    const int k = m % K, first = (m * 53) % 500, second = first + (m % 2 ? 300 : 7);
    x[(size_t(m) * N + first) * K + k] = 2.0f;
    x[(size_t(m) * N + second) * K + k] = 2.0f;
  }
  std::vector<int64_t> out(size_t(M) * K, -7);
  tilec::interpret::launch(argmax_kernel<float, 4, 256>, tilec::Grid{(M + 3) / 4, K}, x.data(),
                           out.data(), M, N, K);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) {
      int best = 0;
      for (int n = 1; n < N; ++n)
        if (x[(size_t(m) * N + n) * K + k] > x[(size_t(m) * N + best) * K + k])
          best = n;
      ASSERT_EQ(out[size_t(m) * K + k], best) << "m=" << m << " k=" << k;
    }
}
