// flash-linear-attention's cumulative sums (kernels/fla_cumsum.cpp) in the interpreter against
// double sums: per chunk of 64 steps (local) and along whole sequences (global), forward and
// reversed, scaled or not, time-major [B, T, H(, S)] and head-first [B, H, T(, S)] layouts,
// fixed-length sequences of 150 steps and variable-length ones of 50, 100 and 3 packed in one
// row; S = 40 in blocks of 32; outputs poisoned before each run.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include <array>

#include "kernels/fla_cumsum.cpp"

using namespace corpus;

namespace {

constexpr int H = 3, S = 40, BT = 64, BS = 32;
constexpr float kScale = 0.5f;

struct Layout {
  int B, T; // batch rows and steps per row
  bool head_first;
  std::vector<int64_t> bounds; // the sequences' [start, end) within row 0 (varlen) or empty
  size_t at(int b, int t, int h, int d, int width) const {
    size_t i = head_first ? (size_t(b) * H + h) * T + t : (size_t(b) * T + t) * H + h;
    return i * width + d;
  }
  /// The sequences as (row, start, length).
  std::vector<std::array<int, 3>> sequences() const {
    std::vector<std::array<int, 3>> out;
    if (bounds.empty())
      for (int b = 0; b < B; ++b)
        out.push_back({b, 0, T});
    else
      for (size_t i = 0; i + 1 < bounds.size(); ++i)
        out.push_back({0, int(bounds[i]), int(bounds[i + 1] - bounds[i])});
    return out;
  }
  /// (sequence, chunk) pairs of BT steps, as the original's prepare_chunk_indices makes them.
  std::vector<int64_t> chunk_indices() const {
    std::vector<int64_t> out;
    for (size_t i = 0; i + 1 < bounds.size(); ++i)
      for (int64_t c = 0; c * BT < bounds[i + 1] - bounds[i]; ++c)
        out.insert(out.end(), {int64_t(i), c});
    return out;
  }
};

/// Cumulative sums of s restarting every `chunk` steps (a chunk of the whole length: global).
std::vector<double> reference(const Layout &l, const std::vector<float> &s, int width, int chunk,
                              bool reverse, bool scaled) {
  std::vector<double> out(s.size(), 0.0);
  for (auto [b, start, len] : l.sequences())
    for (int h = 0; h < H; ++h)
      for (int d = 0; d < width; ++d)
        for (int c0 = 0; c0 < len; c0 += chunk) {
          const int c1 = std::min(len, c0 + chunk);
          double acc = 0;
          for (int i = 0; i < c1 - c0; ++i) {
            const int t = start + (reverse ? c1 - 1 - i : c0 + i);
            acc += s[l.at(b, t, h, d, width)];
            out[l.at(b, t, h, d, width)] = scaled ? acc * kScale : acc;
          }
        }
  return out;
}

void expect_all(const std::vector<float> &got, const std::vector<double> &want, const char *what) {
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_TRUE(close(got[i], want[i], 1e-4, 1e-5, what, i));
  for (size_t i = want.size(); i < got.size(); ++i)
    ASSERT_TRUE(untouched(got[i])) << what << ": written past the output at " << i;
}

template <bool REVERSE, bool SCALED, bool VARLEN, bool HEAD_FIRST> void check() {
  SCOPED_TRACE(::testing::Message() << "reverse " << REVERSE << ", scale " << SCALED
                                    << ", varlen " << VARLEN << ", head first " << HEAD_FIRST);
  const Layout l = VARLEN ? Layout{1, 153, HEAD_FIRST, {0, 50, 150, 153}}
                          : Layout{2, 150, HEAD_FIRST, {}};
  const auto cu = l.bounds;
  const auto chunks = l.chunk_indices();
  const int NT = VARLEN ? int(chunks.size()) / 2 : (l.T + BT - 1) / BT;
  const int N = VARLEN ? int(cu.size()) - 1 : l.B;
  const size_t n1 = size_t(l.B) * l.T * H, nS = n1 * S;
  const auto s1 = uniform(n1, -1, 1, 91), sS = uniform(nS, -1, 1, 92);

  auto o = poisoned(n1 + 4);
  tilec::interpret::launch(
      chunk_local_cumsum_scalar_kernel<float, float, 2, H, BT, REVERSE, SCALED, VARLEN, HEAD_FIRST>,
      tilec::Grid{uint32_t(NT), uint32_t(l.B * H)}, s1.data(), o.data(), kScale, cu.data(),
      chunks.data(), l.T);
  expect_all(o, reference(l, s1, 1, BT, REVERSE, SCALED), "local scalar");

  o = poisoned(nS + 4);
  tilec::interpret::launch(
      chunk_local_cumsum_vector_kernel<float, float, 2, H, S, BT, BS, REVERSE, SCALED, VARLEN,
                                       HEAD_FIRST>,
      tilec::Grid{(S + BS - 1) / BS, uint32_t(NT), uint32_t(l.B * H)}, sS.data(), o.data(),
      kScale, cu.data(), chunks.data(), l.T);
  expect_all(o, reference(l, sS, S, BT, REVERSE, SCALED), "local vector");

  o = poisoned(n1 + 4);
  tilec::interpret::launch(
      chunk_global_cumsum_scalar_kernel<float, float, 2, H, BT, REVERSE, SCALED, VARLEN,
                                        HEAD_FIRST>,
      tilec::Grid{uint32_t(N * H)}, s1.data(), o.data(), kScale, cu.data(), l.T);
  expect_all(o, reference(l, s1, 1, 1 << 30, REVERSE, SCALED), "global scalar");

  o = poisoned(nS + 4);
  tilec::interpret::launch(
      chunk_global_cumsum_vector_kernel<float, float, 2, H, S, BT, BS, REVERSE, SCALED, VARLEN,
                                        HEAD_FIRST>,
      tilec::Grid{(S + BS - 1) / BS, uint32_t(N * H)}, sS.data(), o.data(), kScale, cu.data(),
      l.T);
  expect_all(o, reference(l, sS, S, 1 << 30, REVERSE, SCALED), "global vector");
}

} // namespace

TEST(CorpusFla, CumulativeSums) {
  check<false, false, false, false>();
  check<true, true, false, false>();
  check<false, true, false, true>();
  check<true, false, true, false>();
  check<false, false, true, true>();
  check<true, true, true, true>();
}
