// Block pointers on the GPU against the interpreter running the same kernels
// (kernels/block_ptr.cpp) on the same inputs: Triton's block-pointer matmul with strides given
// at run time (row-major, and B passed transposed), the row-major one whose operands may come
// through the copy engine, and boxes walked backwards with only some dimensions bounds-checked.
// Outputs are poisoned on both sides and have a guard past the tensor, so a store outside it
// shows.
#include "block_ptr.tilec.h"
#include "gpu_test_support.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <random>

namespace host { // the kernels as the interpreter runs them
#include "kernels/block_ptr.cpp"
} // namespace host

namespace {

using tilec_test::expect_close;
using tilec_test::Mirror;
using tilec_test::poisoned;

std::vector<tl::half> random_halves(size_t n, unsigned seed) {
  std::vector<tl::half> out;
  for (float v : tilec_test::random_floats(n, seed))
    out.push_back(tl::half(v));
  return out;
}

// C = A B at M x N x K: A row-major; B row-major, or (b_transposed) stored as B^T [N, K] and
// described by swapped strides, as x @ W^T reads an nn.Linear weight.
template <int BM, int BN, int BK>
void check_strided(int M, int N, int K, bool b_transposed, int warps, int stages) {
  SCOPED_TRACE(testing::Message() << "block_ptr_matmul " << M << " x " << N << " x " << K
                                  << (b_transposed ? ", B transposed" : "") << ", blocks " << BM
                                  << " x " << BN << " x " << BK);
  auto a = random_halves(size_t(M) * K, unsigned(M * 3 + N + K));
  auto b = random_halves(size_t(K) * N, unsigned(M * 3 + N + K + 1));
  const int stride_bk = b_transposed ? 1 : N, stride_bn = b_transposed ? K : 1;
  auto c = poisoned<float>(size_t(M) * N + 64), want = c; // a guard past the end
  Mirror<tl::half> da(a), db(b);
  Mirror<float> dc(c);
  const tilec::Grid grid{unsigned(((M + BM - 1) / BM) * ((N + BN - 1) / BN))};
  tilec::interpret::launch(host::block_ptr_matmul<BM, BN, BK, 8>, grid, a.data(), b.data(),
                           want.data(), M, N, K, K, 1, stride_bk, stride_bn, N, 1);
  block_ptr_matmul<BM, BN, BK, 8>(grid, nullptr, da.ptr(), db.ptr(), dc.ptr(), M, N, K, K, 1,
                                  stride_bk, stride_bn, N, 1,
                                  {.num_warps = warps, .num_stages = stages});
  tilec_test::synchronize();
  expect_close(dc.get(), want, 1e-3, 1e-3, "block_ptr_matmul");
}

TEST(GpuBlockPtr, TritonBlockPointerMatmul) {
  REQUIRE_GPU();
  check_strided<64, 64, 32>(200, 152, 336, false, 4, 3);
  check_strided<64, 64, 32>(200, 152, 333, true, 4, 3);
  check_strided<128, 128, 64>(300, 264, 520, false, 8, 3);
  check_strided<128, 64, 64>(131, 72, 200, true, 4, 2);
}

template <int BM, int BN, int BK> void check_rows(int M, int N, int K, int stages) {
  SCOPED_TRACE(testing::Message() << "block_ptr_matmul_rows " << M << " x " << N << " x " << K
                                  << ", blocks " << BM << " x " << BN << " x " << BK);
  auto a = random_halves(size_t(M) * K, unsigned(M * 5 + N + K));
  auto b = random_halves(size_t(K) * N, unsigned(M * 5 + N + K + 1));
  auto c = poisoned<float>(size_t(M) * N + 64), want = c;
  Mirror<tl::half> da(a), db(b);
  Mirror<float> dc(c);
  const tilec::Grid grid{unsigned((M + BM - 1) / BM), unsigned((N + BN - 1) / BN)};
  tilec::interpret::launch(host::block_ptr_matmul_rows<BM, BN, BK>, grid, a.data(), b.data(),
                           want.data(), M, N, K);
  block_ptr_matmul_rows<BM, BN, BK>(grid, nullptr, da.ptr(), db.ptr(), dc.ptr(), M, N, K,
                                    {.num_warps = 4, .num_stages = stages});
  tilec_test::synchronize();
  expect_close(dc.get(), want, 1e-3, 1e-3, "block_ptr_matmul_rows");
}

// Rows of whole multiples of 16 bytes (TMA where it is available), then K = 333 (cp.async).
TEST(GpuBlockPtr, RowMajorOperandsThroughTensorMaps) {
  REQUIRE_GPU();
  check_rows<64, 64, 32>(200, 152, 336, 3);
  check_rows<128, 128, 64>(300, 264, 520, 3);
  check_rows<64, 64, 32>(200, 152, 333, 3);
}

template <int BM, int BN> void check_backward(int m, int n) {
  SCOPED_TRACE(testing::Message() << "backward_row_sums<" << BM << ", " << BN << "> " << m << "x"
                                  << n);
  const int64_t stride = n + 5;
  auto x = tilec_test::random_floats(size_t(m) * stride, unsigned(m + n));
  auto out = poisoned<float>(size_t(m) * n + 32), want = out;
  Mirror<float> dx(x), dout(out);
  const tilec::Grid grid{unsigned(m / BM)};
  tilec::interpret::launch(host::backward_row_sums<BM, BN>, grid, x.data(), want.data(), m, n,
                           stride);
  backward_row_sums<BM, BN>(grid, nullptr, dx.ptr(), dout.ptr(), m, n, stride);
  tilec_test::synchronize();
  expect_close(dout.get(), want, 1e-5, 1e-5, "backward_row_sums");
}

TEST(GpuBlockPtr, BoxesWalkedBackwardsCheckOnlyColumns) {
  REQUIRE_GPU();
  check_backward<4, 32>(12, 100);
  check_backward<8, 64>(40, 64);
  check_backward<2, 128>(6, 1000);
}

} // namespace
