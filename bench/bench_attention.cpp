// bench_attention.cpp - the attention example's kernels (examples/attention/fused_attention.cpp,
// Triton's tutorial 06 written in the tile vocabulary) through their autotuned launchers:
//   forward   attn_fwd (O and the row log-sum-exp M)
//   backward  attn_bwd_preprocess + attn_bwd_dkdv + attn_bwd_dq, timed together
// fp16, [Z, H, N, D] contiguous, Z = 4, H = 32, N = 1024, 4096 and 16384, D = 64 and 128, causal
// and not, plus grouped-query rows (H_KV = 8) at N = 4096, D = 128. bench/peers/attention.py runs
// the same problems with torch's scaled_dot_product_attention (its default, flash and cuDNN
// backends) and Triton's tutorial 06.
//
// TFLOP/s: 4 * Z * H * N^2 * D for the forward (two products of 2 * N^2 * D per head), half that
// when causal; 2.5 times that for the backward (five products, as the tutorial counts).
//
// Before its timing, each problem is checked against double sums on a sample: rows of O and M
// of three (batch, head) slices from the inputs; rows of dQ and of dK, dV from the inputs, dO
// and the kernels' own O and M (the reference of a key's gradient needs every query's
// log-sum-exp). Outputs are poisoned (NaN) before the checked launch. A problem that fails is
// not timed; the program exits 1 after the others ran. Times are the median of CUDA-event
// timings after warm-up, fewer repetitions for the long problems. BENCH_ATTENTION_N (e.g.
// "1024,4096") limits the sequence lengths, BENCH_ATTENTION_D ("64") the head dimensions,
// BENCH_ATTENTION_PASSES=fwd the passes to the forward.
// Prints JSON lines (bench_util.h). Exits 77 without a GPU.
#include "bench_util.h"
#include "fused_attention.tilec.h"

#include <tilec/runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using half = tl::half;
int g_failures = 0;

/// A device copy of a host vector, or `count` elements of NaN (0xFF bytes).
template <class T> struct Device {
  T *p = nullptr;
  size_t n = 0;
  explicit Device(const std::vector<T> &host) : n(host.size()) {
    CHECK_CUDA(cudaMalloc(&p, n * sizeof(T)));
    CHECK_CUDA(cudaMemcpy(p, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  explicit Device(size_t count) : n(count) {
    CHECK_CUDA(cudaMalloc(&p, n * sizeof(T)));
    poison();
  }
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;
  ~Device() { cudaFree(p); }
  // cudaMemset runs on the legacy default stream, which does not order itself with the
  // benchmark's non-blocking stream: wait for it.
  void poison() {
    CHECK_CUDA(cudaMemset(p, 0xFF, n * sizeof(T)));
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  std::vector<T> download() const {
    std::vector<T> host(n);
    CHECK_CUDA(cudaMemcpy(host.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
};

/// n values uniform in [-1, 1) rounded to fp16 (splitmix64: the same on every run); `exact`
/// holds them as floats.
std::vector<half> random_values(size_t n, uint64_t seed, std::vector<float> &exact) {
  std::vector<half> v(n);
  exact.resize(n);
  uint64_t state = seed;
  for (size_t i = 0; i < n; ++i) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    v[i] = half(float(z >> 40) * (2.0f / 16777216.0f) - 1.0f);
    exact[i] = float(v[i]);
  }
  return v;
}

template <class T> std::vector<float> to_float(const std::vector<T> &v) {
  return std::vector<float>(v.begin(), v.end());
}

struct Problem {
  int Z, H, H_KV, N, D;
  bool causal;
  float sm_scale() const { return float(1.0 / std::sqrt(double(D))); }
  size_t q_elems() const { return size_t(Z) * H * N * D; }
  size_t kv_elems() const { return size_t(Z) * H_KV * N * D; }
  size_t rows() const { return size_t(Z) * H * N; }
  std::string name(const char *dir) const {
    std::string s = std::string("fused_attention ") + dir + " fp16 Z" + std::to_string(Z) + " H" +
                    std::to_string(H);
    if (H_KV != H)
      s += " HKV" + std::to_string(H_KV);
    return s + " N" + std::to_string(N) + " D" + std::to_string(D) +
           (causal ? " causal" : " non-causal");
  }
  double fwd_flops() const { return 4.0 * Z * H * double(N) * N * D * (causal ? 0.5 : 1.0); }
};

/// Host copies (as floats) of the inputs and of what the kernels wrote.
struct Host {
  std::vector<float> q, k, v, d_o, o, m, dq, dk, dv;
};

/// Counts mismatches, printing the first few to stderr.
struct Checker {
  std::string what;
  int bad = 0;
  void expect(double got, double want, double tol, const std::string &where) {
    if (std::fabs(got - want) <= tol) // NaN fails
      return;
    if (++bad <= 5)
      std::fprintf(stderr, "bench_attention: %s: %s: got %g, want %g\n", what.c_str(),
                   where.c_str(), got, want);
  }
  bool done() {
    if (bad) {
      std::fprintf(stderr, "bench_attention: %s: %d mismatches\n", what.c_str(), bad);
      ++g_failures;
    }
    return bad == 0;
  }
};

/// The (batch, head) slices to check: the first, one inside, the last.
std::vector<int> sample_heads(const Problem &p) {
  std::vector<int> h = {0, p.Z * p.H / 2 + 1, p.Z * p.H - 1};
  std::erase_if(h, [&](int x) { return x >= p.Z * p.H; });
  std::sort(h.begin(), h.end());
  h.erase(std::unique(h.begin(), h.end()), h.end());
  return h;
}

/// Rows to check: both ends, block edges, the middle and a few spread over [0, n).
std::vector<int> sample_rows(int n) {
  std::vector<int> r = {0, 1, 63, 64, 127, 128, n / 2, n - 2, n - 1};
  for (int i = 1; i < 8; ++i)
    r.push_back(int(int64_t(n) * i / 8 + 17 * i));
  std::erase_if(r, [&](int x) { return x < 0 || x >= n; });
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}

int kv_head(const Problem &p, int hz) { return hz / p.H * p.H_KV + hz % p.H / (p.H / p.H_KV); }

/// s_ij = sm_scale q_i . k_j, in double.
double score(const Problem &p, const Host &h, int hz, int i, int j) {
  const float *qi = &h.q[(size_t(hz) * p.N + i) * p.D];
  const float *kj = &h.k[(size_t(kv_head(p, hz)) * p.N + j) * p.D];
  double dot = 0;
  for (int c = 0; c < p.D; ++c)
    dot += double(qi[c]) * kj[c];
  return dot * p.sm_scale();
}

/// O within 2e-3 + 1e-2 |O| (P is rounded to fp16 before P V, O is stored as fp16), M within
/// 2e-3 (base 2).
bool check_forward(const Problem &p, const Host &h) {
  Checker chk{p.name("fwd")};
  std::vector<double> s(p.N), acc(p.D);
  for (int hz : sample_heads(p)) {
    const size_t kv = size_t(kv_head(p, hz)) * p.N;
    for (int i : sample_rows(p.N)) {
      const int keys = p.causal ? i + 1 : p.N;
      double mx = -INFINITY, l = 0;
      for (int j = 0; j < keys; ++j)
        mx = std::max(mx, s[j] = score(p, h, hz, i, j));
      std::fill(acc.begin(), acc.end(), 0.0);
      for (int j = 0; j < keys; ++j) {
        double e = std::exp(s[j] - mx);
        l += e;
        for (int c = 0; c < p.D; ++c)
          acc[c] += e * h.v[(kv + j) * p.D + c];
      }
      const std::string row = "slice " + std::to_string(hz) + " row " + std::to_string(i);
      for (int c = 0; c < p.D; ++c) {
        double want = acc[c] / l;
        chk.expect(h.o[(size_t(hz) * p.N + i) * p.D + c], want, 2e-3 + 1e-2 * std::fabs(want),
                   row + " O");
      }
      chk.expect(h.m[size_t(hz) * p.N + i], (mx + std::log(l)) / std::log(2.0), 2e-3, row + " M");
    }
  }
  return chk.done();
}

/// From the kernels' O and M: delta_i = dO_i . O_i, P_ij = exp(s_ij - M_i ln 2),
/// dS_ij = P_ij (dO_i . v_j - delta_i); dQ_i = sm_scale sum_j dS_ij k_j and, per key j of a K/V
/// head, dK_j = sm_scale sum over its query heads and i of dS_ij q_i, dV_j = sum P_ij dO_i.
/// Each value within 2e-2 (|want| + the RMS of the checked values).
bool check_backward(const Problem &p, const Host &h) {
  Checker chk{p.name("bwd")};
  const int N = p.N, D = p.D, group = p.H / p.H_KV;
  auto delta = [&](int hz, int i) {
    double d = 0;
    for (int c = 0; c < D; ++c)
      d += double(h.d_o[(size_t(hz) * N + i) * D + c]) * h.o[(size_t(hz) * N + i) * D + c];
    return d;
  };
  auto prob = [&](int hz, int i, int j) {
    return std::exp(score(p, h, hz, i, j) - double(h.m[size_t(hz) * N + i]) * std::log(2.0));
  };
  auto dp = [&](int hz, int i, int j) {
    const size_t kv = size_t(kv_head(p, hz)) * N;
    double d = 0;
    for (int c = 0; c < D; ++c)
      d += double(h.d_o[(size_t(hz) * N + i) * D + c]) * h.v[(kv + j) * D + c];
    return d;
  };
  struct Value {
    double got, want;
    std::string where;
  };
  std::vector<Value> values;
  std::vector<double> acc(D), acc2(D);
  for (int hz : sample_heads(p)) {
    const size_t kv = size_t(kv_head(p, hz)) * N;
    std::vector<double> deltas(N);
    for (int i = 0; i < N; ++i)
      deltas[i] = delta(hz, i);
    for (int i : sample_rows(N)) { // dQ of query i
      std::fill(acc.begin(), acc.end(), 0.0);
      for (int j = 0; j < (p.causal ? i + 1 : N); ++j) {
        const double ds = prob(hz, i, j) * (dp(hz, i, j) - deltas[i]) * p.sm_scale();
        for (int c = 0; c < D; ++c)
          acc[c] += ds * h.k[(kv + j) * D + c];
      }
      for (int c = 0; c < D; ++c)
        values.push_back({h.dq[(size_t(hz) * N + i) * D + c], acc[c],
                          "dQ slice " + std::to_string(hz) + " row " + std::to_string(i)});
    }
  }
  // dK, dV of key j of the K/V heads the sampled query heads read, summed over every query
  // head of the group.
  std::vector<int> kv_heads;
  for (int hz : sample_heads(p))
    kv_heads.push_back(kv_head(p, hz));
  kv_heads.erase(std::unique(kv_heads.begin(), kv_heads.end()), kv_heads.end());
  for (int kvh : kv_heads) {
    const size_t kv = size_t(kvh) * N;
    const int first = kvh / p.H_KV * p.H + kvh % p.H_KV * group;
    std::vector<std::vector<double>> deltas(group, std::vector<double>(N));
    for (int g = 0; g < group; ++g)
      for (int i = 0; i < N; ++i)
        deltas[g][i] = delta(first + g, i);
    for (int j : sample_rows(N)) {
      std::fill(acc.begin(), acc.end(), 0.0);
      std::fill(acc2.begin(), acc2.end(), 0.0);
      for (int g = 0; g < group; ++g) {
        const int qh = first + g;
        for (int i = p.causal ? j : 0; i < N; ++i) {
          const double pij = prob(qh, i, j);
          const double ds = pij * (dp(qh, i, j) - deltas[g][i]) * p.sm_scale();
          for (int c = 0; c < D; ++c) {
            acc[c] += ds * h.q[(size_t(qh) * N + i) * D + c];
            acc2[c] += pij * h.d_o[(size_t(qh) * N + i) * D + c];
          }
        }
      }
      const std::string where = " kv head " + std::to_string(kvh) + " key " + std::to_string(j);
      for (int c = 0; c < D; ++c) {
        values.push_back({h.dk[(kv + j) * D + c], acc[c], "dK" + where});
        values.push_back({h.dv[(kv + j) * D + c], acc2[c], "dV" + where});
      }
    }
  }
  double rms = 0;
  for (const Value &v : values)
    rms += v.want * v.want;
  rms = std::sqrt(rms / std::max<size_t>(values.size(), 1));
  for (const Value &v : values)
    chk.expect(v.got, v.want, 2e-2 * (std::fabs(v.want) + rms), v.where);
  return chk.done();
}

template <int D, bool CAUSAL> struct Kernels {
  const Problem &p;
  const half *q, *k, *v, *d_o;
  half *o, *dq, *dk, *dv;
  float *m, *delta;
  tilec::Config fwd_cfg, dkdv_cfg, dq_cfg;

  void forward(cudaStream_t s) {
    auto grid = [&](const tilec::Config &meta) {
      fwd_cfg = meta;
      return tilec::Grid{uint32_t(tilec::cdiv(p.N, meta["BLOCK_M"])), uint32_t(p.Z * p.H)};
    };
    attn_fwd_autotuned<D, CAUSAL, false, half>(grid, s, q, k, v, o, m, p.sm_scale(), p.N, p.H,
                                               p.H_KV, 0);
  }
  void backward(cudaStream_t s) {
    constexpr int kPre = 64;
    attn_bwd_preprocess<kPre, D, half>(
        tilec::Grid{uint32_t(tilec::cdiv(p.N, kPre)), uint32_t(p.Z * p.H)}, s, o, d_o, delta, p.N,
        {.num_warps = 4});
    auto dkdv_grid = [&](const tilec::Config &meta) {
      dkdv_cfg = meta;
      return tilec::Grid{uint32_t(tilec::cdiv(p.N, meta["BLOCK_N"])), uint32_t(p.Z * p.H_KV)};
    };
    attn_bwd_dkdv_autotuned<D, CAUSAL, false, half>(dkdv_grid, s, q, k, v, d_o, m, delta, dk, dv,
                                                    p.sm_scale(), p.N, p.H, p.H_KV, 0);
    auto dq_grid = [&](const tilec::Config &meta) {
      dq_cfg = meta;
      return tilec::Grid{uint32_t(tilec::cdiv(p.N, meta["BLOCK_M"])), uint32_t(p.Z * p.H)};
    };
    attn_bwd_dq_autotuned<D, CAUSAL, false, half>(dq_grid, s, q, k, v, d_o, m, delta, dq,
                                                  p.sm_scale(), p.N, p.H, p.H_KV, 0);
  }
};

/// Median time of `run`, with fewer repetitions when one run is long (N = 16384).
double time_ms(const std::function<void()> &run, cudaStream_t s) {
  double once = bench::median_ms([&](int) { run(); }, s, 1, 1);
  int reps = std::clamp(int(1000.0 / std::max(once, 1e-3)), 3, 20);
  return bench::median_ms([&](int) { run(); }, s, std::min(reps, 5), reps);
}

/// Whether the backward runs too: BENCH_ATTENTION_PASSES=fwd times the forward only (it still
/// runs, as the backward needs its O and M).
bool backward_wanted() {
  const char *env = std::getenv("BENCH_ATTENTION_PASSES");
  return !env || std::string(env) != "fwd";
}

template <int D, bool CAUSAL> void run_problem(const Problem &p, cudaStream_t s) {
  const std::string fwd_name = p.name("fwd");
  try {
    Host h;
    Device<half> q(random_values(p.q_elems(), 41, h.q));
    Device<half> k(random_values(p.kv_elems(), 42, h.k));
    Device<half> v(random_values(p.kv_elems(), 43, h.v));
    Device<half> d_o(random_values(p.q_elems(), 44, h.d_o));
    Device<half> o(p.q_elems()), dq(p.q_elems()), dk(p.kv_elems()), dv(p.kv_elems());
    Device<float> m(p.rows()), delta(p.rows());
    Kernels<D, CAUSAL> kern{p,    q.p,  k.p, v.p,     d_o.p, o.p, dq.p,
                            dk.p, dv.p, m.p, delta.p, {},    {},  {}};

    kern.forward(s); // autotunes
    CHECK_CUDA(cudaStreamSynchronize(s));
    o.poison();
    m.poison();
    kern.forward(s);
    CHECK_CUDA(cudaStreamSynchronize(s));
    h.o = to_float(o.download());
    h.m = m.download();
    if (!check_forward(p, h))
      return;
    const double fwd_ms = time_ms([&] { kern.forward(s); }, s);
    bench::emit({fwd_name, "tilec", fwd_ms, "TFLOP/s", p.fwd_flops() / (fwd_ms * 1e9),
                 "autotuned: " + kern.fwd_cfg.str()});
    if (!backward_wanted())
      return;

    kern.backward(s); // autotunes
    CHECK_CUDA(cudaStreamSynchronize(s));
    delta.poison();
    dq.poison();
    dk.poison();
    dv.poison();
    kern.backward(s);
    CHECK_CUDA(cudaStreamSynchronize(s));
    h.dq = to_float(dq.download());
    h.dk = to_float(dk.download());
    h.dv = to_float(dv.download());
    if (!check_backward(p, h))
      return;
    const double bwd_ms = time_ms([&] { kern.backward(s); }, s);
    bench::emit({p.name("bwd"), "tilec", bwd_ms, "TFLOP/s", 2.5 * p.fwd_flops() / (bwd_ms * 1e9),
                 "preprocess + dK/dV (" + kern.dkdv_cfg.str() + ") + dQ (" + kern.dq_cfg.str() +
                     "), autotuned"});
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_attention: %s: FAILED: %s\n", fwd_name.c_str(), e.what());
    ++g_failures;
  }
}

template <int D, bool CAUSAL> void run_shapes(const std::vector<int> &lengths, cudaStream_t s) {
  for (int n : lengths)
    run_problem<D, CAUSAL>(Problem{4, 32, 32, n, D, CAUSAL}, s);
}

/// The integers of environment variable `name` ("1024,4096"), or `fallback` when it is unset
/// or empty.
std::vector<int> env_ints(const char *name, std::vector<int> fallback) {
  const char *env = std::getenv(name);
  if (!env || !*env)
    return fallback;
  std::vector<int> out;
  std::stringstream ss(env);
  for (std::string item; std::getline(ss, item, ',');)
    out.push_back(std::stoi(item));
  return out;
}

} // namespace

int main() {
  return bench::run_on_gpu("bench_attention", [](cudaStream_t s) {
    const std::vector<int> n = env_ints("BENCH_ATTENTION_N", {1024, 4096, 16384});
    // The grouped-query rows (D = 128) run with D = 128.
    const std::vector<int> d = env_ints("BENCH_ATTENTION_D", {64, 128});
    auto head_dim_wanted = [&](int x) { return std::count(d.begin(), d.end(), x) > 0; };
    if (head_dim_wanted(64)) {
      run_shapes<64, false>(n, s);
      run_shapes<64, true>(n, s);
    }
    if (head_dim_wanted(128)) {
      run_shapes<128, false>(n, s);
      run_shapes<128, true>(n, s);
      // Grouped-query attention: 32 query heads over 8 K/V heads.
      run_problem<128, false>(Problem{4, 32, 8, 4096, 128, false}, s);
      run_problem<128, true>(Problem{4, 32, 8, 4096, 128, true}, s);
    }
    if (g_failures)
      throw std::runtime_error(std::to_string(g_failures) +
                               " problem(s) failed their correctness check or could not run");
  });
}
