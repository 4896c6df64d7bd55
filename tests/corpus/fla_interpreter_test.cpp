// flash-linear-attention's fused recurrence (kernels/fla_fused_recurrent.cpp) in the
// interpreter against a double-precision reference: the forward's outputs and final state
// from the recurrence itself, the backward's dq, dk, dv and dh0 from its derivative (dS_t =
// scale q_t do_t^T + D_{t+1} * dS_{t+1}), and the decays' gradients from the kernel's own
// running sums, written as plain loops. K and V are not multiples of the blocks (50 and 40 in
// blocks of 32: two programs each way, their parts of o, dq, dk, dv summed as the original's
// host does), every decay on, forward and reverse time, fixed-length and variable-length
// sequences; outputs poisoned before each run.
#include "corpus_support.h"

#include <tilec/interpret.h>

#include "kernels/fla_fused_recurrent.cpp"

#include <algorithm>

using namespace corpus;

namespace {

constexpr int H = 3, K = 50, V = 40, BK = 32, BV = 32, NK = 2, NV = 2;

struct Inputs {
  int tokens; // B * T, or the last cu_seqlens
  std::vector<int64_t> bounds;
  std::vector<float> q, k, v, g, gk, gv, h0, gamma, dout, dht;
  explicit Inputs(std::vector<int64_t> b) : tokens(int(b.back())), bounds(std::move(b)) {
    const int n = int(bounds.size()) - 1;
    q = uniform(size_t(tokens) * H * K, -1, 1, 61);
    k = uniform(size_t(tokens) * H * K, -1, 1, 62);
    v = uniform(size_t(tokens) * H * V, -1, 1, 63);
    g = uniform(size_t(tokens) * H, -0.3f, 0, 64);
    gk = uniform(size_t(tokens) * H * K, -0.3f, 0, 65);
    gv = uniform(size_t(tokens) * H * V, -0.3f, 0, 66);
    h0 = uniform(size_t(n) * H * K * V, -1, 1, 67);
    gamma = uniform(H, -0.2f, 0, 68);
    dout = uniform(size_t(tokens) * H * V, -1, 1, 69);
    dht = uniform(size_t(n) * H * K * V, -1, 1, 70);
  }
};

/// The decay of step t (token r) at (i, j).
double decay(const Inputs &in, int r, int h, int i, int j) {
  return std::exp(double(in.g[size_t(r) * H + h]) + in.gamma[h] +
                  in.gk[(size_t(r) * H + h) * K + i] + in.gv[(size_t(r) * H + h) * V + j]);
}

struct Reference {
  std::vector<double> o, ht, dq, dk, dv, dh0, dg, dgk, dgv;
};

Reference reference(const Inputs &in, bool reverse, double scale) {
  Reference r;
  const int n = int(in.bounds.size()) - 1;
  const size_t tk = size_t(in.tokens) * H;
  r.o.assign(tk * V, 0);
  r.dq.assign(tk * K, 0);
  r.dk.assign(tk * K, 0);
  r.dv.assign(tk * V, 0);
  r.dg.assign(tk, 0);
  r.dgk.assign(tk * K, 0);
  r.dgv.assign(tk * V, 0);
  r.ht.assign(size_t(n) * H * K * V, 0);
  r.dh0 = r.ht;
  for (int s = 0; s < n; ++s)
    for (int h = 0; h < H; ++h) {
      const int bos = int(in.bounds[s]), len = int(in.bounds[s + 1]) - bos;
      auto token = [&](int t) { return reverse ? bos + len - 1 - t : bos + t; };
      auto at = [&](const std::vector<float> &x, int row, int i, int w) {
        return double(x[(size_t(row) * H + h) * w + i]);
      };
      std::vector<double> S(size_t(K) * V), dS(size_t(K) * V);
      for (int i = 0; i < K * V; ++i)
        S[i] = in.h0[(size_t(s) * H + h) * K * V + i];
      for (int t = 0; t < len; ++t) {
        const int row = token(t);
        for (int i = 0; i < K; ++i)
          for (int j = 0; j < V; ++j)
            S[size_t(i) * V + j] = S[size_t(i) * V + j] * decay(in, row, h, i, j) +
                                   at(in.k, row, i, K) * at(in.v, row, j, V);
        for (int j = 0; j < V; ++j)
          for (int i = 0; i < K; ++i)
            r.o[(size_t(row) * H + h) * V + j] += S[size_t(i) * V + j] * at(in.q, row, i, K) * scale;
        for (int i = 0; i < K; ++i)
          for (int j = 0; j < V; ++j)
            r.dq[(size_t(row) * H + h) * K + i] += S[size_t(i) * V + j] * at(in.dout, row, j, V) * scale;
      }
      for (int i = 0; i < K * V; ++i) {
        r.ht[(size_t(s) * H + h) * K * V + i] = S[i];
        dS[i] = in.dht[(size_t(s) * H + h) * K * V + i];
      }
      // The kernel's running sums for the decays, from the final state's term.
      double dg = 0;
      std::vector<double> dgk(K, 0), dgv(V, 0);
      for (int i = 0; i < K; ++i)
        for (int j = 0; j < V; ++j) {
          double p = S[size_t(i) * V + j] * dS[size_t(i) * V + j];
          dg += p, dgk[i] += p, dgv[j] += p;
        }
      for (int t = len - 1; t >= 0; --t) {
        const int row = token(t);
        for (int i = 0; i < K; ++i)
          for (int j = 0; j < V; ++j)
            dS[size_t(i) * V + j] += at(in.q, row, i, K) * scale * at(in.dout, row, j, V);
        std::vector<double> dk(K, 0), dv(V, 0);
        for (int i = 0; i < K; ++i)
          for (int j = 0; j < V; ++j) {
            dk[i] += dS[size_t(i) * V + j] * at(in.v, row, j, V);
            dv[j] += dS[size_t(i) * V + j] * at(in.k, row, i, K);
          }
        for (int i = 0; i < K; ++i) {
          const double qdq = at(in.q, row, i, K) * r.dq[(size_t(row) * H + h) * K + i];
          dg += qdq - at(in.k, row, i, K) * dk[i];
          dgk[i] += qdq - at(in.k, row, i, K) * dk[i];
          r.dk[(size_t(row) * H + h) * K + i] = dk[i];
        }
        for (int j = 0; j < V; ++j) {
          dgv[j] += r.o[(size_t(row) * H + h) * V + j] * at(in.dout, row, j, V) -
                    at(in.v, row, j, V) * dv[j];
          r.dv[(size_t(row) * H + h) * V + j] = dv[j];
        }
        r.dg[size_t(row) * H + h] = dg;
        for (int i = 0; i < K; ++i)
          r.dgk[(size_t(row) * H + h) * K + i] = dgk[i];
        for (int j = 0; j < V; ++j)
          r.dgv[(size_t(row) * H + h) * V + j] = dgv[j];
        for (int i = 0; i < K; ++i)
          for (int j = 0; j < V; ++j)
            dS[size_t(i) * V + j] *= decay(in, row, h, i, j);
      }
      for (int i = 0; i < K * V; ++i)
        r.dh0[(size_t(s) * H + h) * K * V + i] = dS[i];
    }
  return r;
}

/// The parts the programs along one block axis wrote ([parts, n]), summed.
std::vector<float> summed(const std::vector<float> &parts, int count, size_t n) {
  std::vector<float> s(n, 0.0f);
  for (int p = 0; p < count; ++p)
    for (size_t i = 0; i < n; ++i)
      s[i] += parts[size_t(p) * n + i];
  return s;
}

void expect_all(const std::vector<float> &got, const std::vector<double> &want, double tol,
                const char *what) {
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_TRUE(close(got[i], want[i], tol, tol, what, i));
}

template <bool REVERSE, bool VARLEN> void check(const std::vector<int64_t> &bounds) {
  SCOPED_TRACE(::testing::Message() << "reverse " << REVERSE << ", varlen " << VARLEN);
  const Inputs in(bounds);
  const int n = int(bounds.size()) - 1;
  // Fixed length: B sequences of T; variable: one batch row of all the tokens.
  const int B = VARLEN ? 1 : n, T = VARLEN ? in.tokens : in.tokens / n;
  const float scale = 0.3f;
  const Reference want = reference(in, REVERSE, scale);
  const size_t tk = size_t(in.tokens) * H;
  const int64_t *cu = VARLEN ? in.bounds.data() : nullptr;
  const tilec::Grid grid{NV, NK, uint32_t(n * H)};

  auto o = poisoned(NK * tk * V + 8);
  auto ht = poisoned(size_t(n) * H * K * V + 8);
  tilec::interpret::launch(
      fused_recurrent_fwd_kernel<float, float, float, H, K, V, BK, BV, REVERSE, true, true, true,
                                 true, true, true, VARLEN>,
      grid, in.q.data(), in.k.data(), in.v.data(), in.g.data(), in.gamma.data(), in.gk.data(),
      in.gv.data(), o.data(), in.h0.data(), ht.data(), cu, scale, B, T);
  expect_all(summed(o, NK, tk * V), want.o, 1e-4, "o");
  expect_all(ht, want.ht, 1e-4, "ht");
  EXPECT_TRUE(untouched(o.back()) && untouched(ht.back()));

  const auto o_sum = summed(o, NK, tk * V);
  auto dq = poisoned(NV * tk * K + 8), dk = poisoned(NV * tk * K + 8);
  auto dv = poisoned(NK * tk * V + 8), dg = poisoned(NK * NV * tk + 8);
  auto dgk = poisoned(NV * tk * K + 8), dgv = poisoned(NK * tk * V + 8);
  auto dh0 = poisoned(size_t(n) * H * K * V + 8);
  tilec::interpret::launch(
      fused_recurrent_bwd_kernel<float, float, float, H, K, V, BK, BV, REVERSE, true, true, true,
                                 true, true, true, true, VARLEN>,
      grid, in.q.data(), in.k.data(), in.v.data(), in.g.data(), in.gamma.data(), in.gk.data(),
      in.gv.data(), o_sum.data(), in.h0.data(), in.dout.data(), dq.data(), dk.data(), dv.data(),
      dg.data(), dgk.data(), dgv.data(), in.dht.data(), dh0.data(), cu, scale, B, T);
  expect_all(summed(dq, NV, tk * K), want.dq, 1e-4, "dq");
  expect_all(summed(dk, NV, tk * K), want.dk, 1e-4, "dk");
  expect_all(summed(dv, NK, tk * V), want.dv, 1e-4, "dv");
  expect_all(summed(dg, NK * NV, tk), want.dg, 1e-3, "dg");
  expect_all(summed(dgk, NV, tk * K), want.dgk, 1e-4, "dgk");
  expect_all(summed(dgv, NK, tk * V), want.dgv, 1e-4, "dgv");
  expect_all(dh0, want.dh0, 1e-4, "dh0");
  for (auto *x : {&dq, &dk, &dv, &dg, &dgk, &dgv, &dh0})
    EXPECT_TRUE(untouched(x->back()));
}

} // namespace

TEST(CorpusFla, FusedRecurrentForwardAndBackward) {
  check<false, false>({0, 7, 14});
  check<true, false>({0, 7, 14});
  check<false, true>({0, 3, 11, 12});
  check<true, true>({0, 3, 11, 12});
}
