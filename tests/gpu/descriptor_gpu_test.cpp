// Tensor descriptors on the GPU against the interpreter running the same kernels
// (kernels/descriptor.cpp) on the same inputs: boxes over every edge of the tensor (negative
// offsets too), rank-1 and rank-3 boxes, and a matmul whose operands come through descriptors
// (pipelined like pointer tiles). Outputs are poisoned on both sides and have a guard past
// the tensor, so a store outside it shows.
#include "descriptor.tilec.h"
#include "gpu_test_support.h"

#include <tilec/interpret.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <random>

namespace host { // the kernels as the interpreter runs them
#include "kernels/descriptor.cpp"
} // namespace host

namespace {

using tilec_test::expect_close;
using tilec_test::expect_same_bits;
using tilec_test::Mirror;
using tilec_test::poisoned;

template <int BM, int BN> void check_shifted_copy(int m, int n, int shift_m, int shift_n, int warps) {
  SCOPED_TRACE(testing::Message() << "shifted_copy<" << BM << ", " << BN << "> " << m << "x" << n
                                  << " shift " << shift_m << ", " << shift_n);
  const int64_t stride = n + 3;
  std::mt19937 rng(m * 17 + n);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> src(size_t(m) * stride);
  for (float &v : src)
    v = dist(rng);
  auto dst = poisoned<float>(size_t(m + 1) * n); // a guard row past the tensor
  Mirror<float> dsrc(src), ddst(dst);
  const tilec::Grid grid{uint32_t((m + BM - 1) / BM), uint32_t((n + BN - 1) / BN)};
  tilec::interpret::launch(host::shifted_copy<float, BM, BN>, grid, src.data(), dst.data(), m, n,
                           stride, shift_m, shift_n);
  shifted_copy<float, BM, BN>(grid, nullptr, dsrc.ptr(), ddst.ptr(), m, n, stride, shift_m,
                              shift_n, {.num_warps = warps});
  tilec_test::synchronize();
  expect_same_bits(ddst.get(), dst, "dst"); // copies and doublings; the guard row still poison
}

TEST(GpuDescriptor, BoxesOverEveryEdge) {
  REQUIRE_GPU();
  check_shifted_copy<32, 64>(100, 200, 0, 0, 4);
  check_shifted_copy<32, 64>(100, 200, -5, 7, 4);
  check_shifted_copy<16, 128>(37, 250, 3, -70, 8);
  check_shifted_copy<64, 32>(130, 61, -64, -32, 2);
}

TEST(GpuDescriptor, RankOneAndRankThreeBoxes) {
  REQUIRE_GPU();
  const int n = 1000;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = float(i) / 7;
  auto y = poisoned<float>(size_t(n) + 16);
  auto want = y;
  Mirror<float> dx(x), dy(y);
  tilec::interpret::launch(host::plus_one<256>, tilec::Grid{4}, x.data(), want.data(), n);
  plus_one<256>(tilec::Grid{4}, nullptr, dx.ptr(), dy.ptr(), n, {.num_warps = 4});
  tilec_test::synchronize();
  expect_same_bits(dy.get(), want, "y");

  constexpr int P = 13, Q = 27, R = 45, D0 = 4, D1 = 8, D2 = 16;
  std::vector<float> t(size_t(P) * Q * R);
  for (size_t i = 0; i < t.size(); ++i)
    t[i] = float(int(i % 29) - 14) / 8; // exact sums in any order
  auto sums = poisoned<float>(size_t(P) * R + 8);
  auto want_sums = sums;
  Mirror<float> dt(t), dsums(sums);
  const tilec::Grid grid{(P + D0 - 1) / D0, (R + D2 - 1) / D2};
  tilec::interpret::launch(host::middle_sums<D0, D1, D2>, grid, t.data(), want_sums.data(), P, Q,
                           R);
  middle_sums<D0, D1, D2>(grid, nullptr, dt.ptr(), dsums.ptr(), P, Q, R, {.num_warps = 4});
  tilec_test::synchronize();
  expect_same_bits(dsums.get(), want_sums, "sums");
}

/// `n` halves uniform in [-1, 1), the same for the same seed.
std::vector<tl::half> random_halves(size_t n, unsigned seed) {
  std::vector<tl::half> out;
  for (float v : tilec_test::random_floats(n, seed))
    out.push_back(tl::half(v));
  return out;
}

// C = A B through descriptors at M x N x K with [BM, BN, BK] blocks, against the interpreter.
template <int BM, int BN, int BK> void check_descriptor_matmul(int M, int N, int K, int stages) {
  SCOPED_TRACE(testing::Message() << M << " x " << N << " x " << K << ", blocks " << BM << " x "
                                  << BN << " x " << BK << ", " << stages << " stages");
  auto a = random_halves(size_t(M) * K, unsigned(M * 7 + N * 3 + K));
  auto b = random_halves(size_t(K) * N, unsigned(M * 7 + N * 3 + K + 1));
  auto c = poisoned<float>(size_t(M) * N), want = c;
  Mirror<tl::half> da(a), db(b);
  Mirror<float> dc(c);
  const tilec::Grid grid{unsigned((M + BM - 1) / BM), unsigned((N + BN - 1) / BN)};
  tilec::interpret::launch(host::descriptor_matmul<BM, BN, BK>, grid, a.data(), b.data(),
                           want.data(), M, N, K);
  descriptor_matmul<BM, BN, BK>(grid, nullptr, da.ptr(), db.ptr(), dc.ptr(), M, N, K,
                                {.num_warps = 4, .num_stages = stages});
  tilec_test::synchronize();
  expect_close(dc.get(), want, 1e-3, 1e-3, "descriptor_matmul");
}

// Rows of A and B that are whole multiples of 16 bytes: on sm_90 the copy engine (TMA) fills
// the stages from tensor maps, with zeros past every edge (sizes not multiples of the blocks),
// in each of its swizzle widths (BK = 16, 32, 64 halves: 32, 64, 128-byte panels; BN = 128
// halves: two 128-byte panels of B).
TEST(GpuDescriptor, MatmulThroughTensorMaps) {
  REQUIRE_GPU();
  if (tilec::tma_available()) { // the maps these launches need are encoded
    std::vector<tl::half> m(64 * 64);
    Mirror<tl::half> dm(m);
    tilec::TmaMap map;
    EXPECT_TRUE(tilec::encode_tma_map(map, dm.ptr(), 2, 64, 64, 64, 64, 32));
  } else {
    std::printf("no TMA here (older GPU or TILEC_TMA=0): the copies below are cp.async\n");
  }
  check_descriptor_matmul<64, 64, 32>(200, 152, 336, 3);
  check_descriptor_matmul<64, 64, 16>(77, 40, 88, 4);
  check_descriptor_matmul<128, 128, 64>(300, 264, 520, 3);
  check_descriptor_matmul<64, 128, 64>(129, 136, 64, 2);
  // K within one block: the loop runs once, the prologue's other stages stay empty.
  check_descriptor_matmul<64, 64, 32>(64, 64, 24, 4);
}

bool sm90() {
  const auto &d = tilec::detail::driver();
  return d.cc_major == 9 && d.cc_minor == 0;
}

// The 1-D grid of tutorial 03's order, with more programs than the GPU holds at once: when
// the producer warpgroup loads (sm_90a, both maps encoded), the launch is persistent and the
// blocks run several programs each, carrying their place in the stage ring from one to the
// next. Shapes not multiples of the blocks; K = 40 is two blocks with a ragged one, K = 200 more.
// With C in halves (TC) the tiles go out through the copy engine where the buffer fits, each
// block reusing it from one program to the next; the parts of edge tiles past M and N are not
// written (the poison there must survive).
template <int BM, int BN, int BK, class TC = float>
void check_grouped_matmul(int M, int N, int K, int warps, int stages, bool want_persistent) {
  SCOPED_TRACE(testing::Message() << "grouped " << M << " x " << N << " x " << K << ", blocks "
                                  << BM << " x " << BN << " x " << BK << ", " << warps
                                  << " warps, " << stages << " stages, "
                                  << (sizeof(TC) == 2 ? "half" : "float") << " C");
  auto a = random_halves(size_t(M) * K, unsigned(M * 5 + N * 11 + K));
  auto b = random_halves(size_t(K) * N, unsigned(M * 5 + N * 11 + K + 1));
  // C is one row longer than M rows, poisoned: a store past the last row would show there.
  auto c = poisoned<TC>(size_t(M + 1) * N), want = c;
  Mirror<tl::half> da(a), db(b);
  Mirror<TC> dc(c);
  const tilec::Grid grid{unsigned(((M + BM - 1) / BM) * ((N + BN - 1) / BN))};
  tilec::interpret::launch(host::grouped_descriptor_matmul<BM, BN, BK, 8, TC>, grid, a.data(),
                           b.data(), want.data(), M, N, K);
  const uint64_t before = tilec::runtime_stats().persistent_launches;
  grouped_descriptor_matmul<BM, BN, BK, 8, TC>(grid, nullptr, da.ptr(), db.ptr(), dc.ptr(), M, N,
                                               K, {.num_warps = warps, .num_stages = stages});
  tilec_test::synchronize();
  auto floats = [](const std::vector<TC> &v) {
    std::vector<float> out(v.size());
    for (size_t i = 0; i < v.size(); ++i)
      out[i] = float(v[i]);
    return out;
  };
  // Halves: the interpreter and the GPU sum in different orders, then round the same way.
  const double tol = sizeof(TC) == 2 ? 1e-2 : 1e-3;
  expect_close(floats(dc.get()), floats(want), tol, tol, "grouped_descriptor_matmul");
  EXPECT_EQ(tilec::runtime_stats().persistent_launches, before + (want_persistent ? 1 : 0))
      << "whether the launch started fewer blocks than its " << grid.x << " programs";
}

TEST(GpuDescriptor, PersistentProgramsRunInTurn) {
  REQUIRE_GPU();
  // The producer warpgroup loads where the copy engine does, on sm_90a (the runtime compiles
  // for it on an H100/H200) unless TILEC_WARP_SPECIALIZE=0 or TILEC_PERSISTENT=0 says not to.
  auto unset_or_on = [](const char *name) {
    const char *v = std::getenv(name);
    return !v || std::string(v) != "0";
  };
  const bool persistent = tilec::tma_available() && sm90() &&
                          unset_or_on("TILEC_WARP_SPECIALIZE") && unset_or_on("TILEC_PERSISTENT");
  if (!persistent)
    std::printf("no producer warpgroup here: each block runs one program\n");
  // 33 x 33 = 1089 programs of 64 x 64: more than 132 SMs hold of them at once. Rows of A
  // and B are whole multiples of 16 bytes, so both maps are encoded.
  check_grouped_matmul<64, 64, 32>(2100, 2096, 40, 4, 3, persistent);
  // 16 x 10 programs of 128 x 256 with two consumer warpgroups: one block per SM.
  check_grouped_matmul<128, 256, 64>(2000, 2504, 200, 8, 4, persistent);
  // B's rows of 2090 halves are not: no producer warpgroup, one program per block.
  check_grouped_matmul<64, 64, 32>(2100, 2090, 40, 4, 3, false);
  // C in halves: stored by the copy engine, each block's buffer reused program after program.
  check_grouped_matmul<64, 64, 32, tl::half>(2100, 2096, 40, 4, 3, persistent);
  check_grouped_matmul<128, 256, 64, tl::half>(2000, 2504, 200, 8, 3, persistent);
  // Four stages of 128 x 256 x 64 leave no room for the buffer: stored as written.
  check_grouped_matmul<128, 256, 64, tl::half>(2000, 2504, 200, 8, 4, persistent);
}

// A second launch with the same arguments copies its three maps (A, B and C) from the ones
// the thread encoded for the first, instead of asking the driver again, and computes the same.
TEST(GpuDescriptor, LaunchesReuseTheirTensorMaps) {
  REQUIRE_GPU();
  if (!tilec::tma_available()) {
    std::printf("no TMA here (older GPU or TILEC_TMA=0): no maps to reuse\n");
    return;
  }
  const int M = 320, N = 256, K = 96;
  auto a = random_halves(size_t(M) * K, 11), b = random_halves(size_t(K) * N, 12);
  auto c = poisoned<tl::half>(size_t(M) * N), want = c;
  Mirror<tl::half> da(a), db(b), dc(c);
  const tilec::Grid grid{unsigned((M / 64) * (N / 64))};
  tilec::interpret::launch(host::grouped_descriptor_matmul<64, 64, 32, 8, tl::half>, grid,
                           a.data(), b.data(), want.data(), M, N, K);
  auto launch = [&] {
    grouped_descriptor_matmul<64, 64, 32, 8, tl::half>(grid, nullptr, da.ptr(), db.ptr(), dc.ptr(),
                                                      M, N, K, {.num_warps = 4, .num_stages = 3});
    tilec_test::synchronize();
  };
  launch();
  const tilec::RuntimeStats first = tilec::runtime_stats();
  launch();
  const tilec::RuntimeStats second = tilec::runtime_stats();
  EXPECT_EQ(second.tma_maps_encoded, first.tma_maps_encoded);
  EXPECT_EQ(second.tma_map_reuses, first.tma_map_reuses + 3);
  std::vector<float> got, expected;
  for (tl::half h : dc.get())
    got.push_back(float(h));
  for (tl::half h : want)
    expected.push_back(float(h));
  expect_close(got, expected, 1e-2, 1e-2, "grouped_descriptor_matmul, second launch");
}

// Rows of A that are not a multiple of 16 bytes (K = 333): A's map cannot be encoded, so A's
// stages are copied by cp.async while B's (N = 152) may come by TMA, on the same stages.
TEST(GpuDescriptor, MatmulThroughDescriptors) {
  REQUIRE_GPU();
  check_descriptor_matmul<64, 64, 32>(200, 152, 333, 3);
}

} // namespace
