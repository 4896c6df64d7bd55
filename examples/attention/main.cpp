// main.cpp - checks the attention kernels (fused_attention.cpp) against a double-precision CPU
// reference computed from the same rounded inputs: the forward pass (O and the row
// log-sum-exp M), then the backward pass from the kernels' own O and M (delta, dQ, dK, dV).
// Sequence lengths are not multiples of any block; Z = 2, H = 4 query heads over H_KV = 2
// K/V heads (grouped-query attention), plus one-head and one-row edge cases; fp16 and bf16,
// head dims 64 and 128, causal or not, with and without a sliding window. Runs on the GPU
// when there is one (kSmallConfig for every variant, the autotuned kernels for some, larger
// N), else in the interpreter (kSmallConfig, small N).
//
//   attention [--gpu] [--interpreter] [--quick]
//     --gpu          require a GPU: exit 77 ("SKIPPED") without one (for ctest)
//     --interpreter  run in the host interpreter even when a GPU is present
//     --quick        the small-block checks only, also on a GPU (for the sanitizers)
#include "runners.h"

#include "example_main.h"
#include "host_check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using example::Config;
using example::Shape;
using example::Tensors;

/// The exact results of one problem, in double.
struct Reference {
  std::vector<double> o, m, delta, dq, dk, dv;
};

/// Whether query i sees key j (both < N).
bool visible(const Shape &s, int i, int j) {
  if (s.causal && j > i)
    return false;
  if (s.window > 0 && (i - j >= s.window || (!s.causal && j - i >= s.window)))
    return false;
  return true;
}

Reference reference(const Shape &s, const std::vector<float> &q, const std::vector<float> &k,
                    const std::vector<float> &v, const std::vector<float> &d_o) {
  const int N = s.N, D = s.D, group = s.H / s.H_KV;
  Reference r;
  r.o.assign(s.q_elems(), 0);
  r.dq.assign(s.q_elems(), 0);
  r.dk.assign(s.kv_elems(), 0);
  r.dv.assign(s.kv_elems(), 0);
  r.m.assign(s.rows(), 0);
  r.delta.assign(s.rows(), 0);
  std::vector<double> p(N), dp(N);
  for (int z = 0; z < s.Z; ++z)
    for (int h = 0; h < s.H; ++h) {
      const size_t qh = (size_t(z) * s.H + h) * N, kh = (size_t(z) * s.H_KV + h / group) * N;
      for (int i = 0; i < N; ++i) {
        const float *qi = &q[(qh + i) * D];
        double mx = -INFINITY;
        for (int j = 0; j < N; ++j) {
          if (!visible(s, i, j))
            continue;
          double dot = 0;
          for (int c = 0; c < D; ++c)
            dot += double(qi[c]) * k[(kh + j) * D + c];
          p[j] = dot * s.sm_scale;
          mx = std::max(mx, p[j]);
        }
        double sum = 0;
        for (int j = 0; j < N; ++j)
          if (visible(s, i, j))
            sum += (p[j] = std::exp(p[j] - mx));
        double *oi = &r.o[(qh + i) * D];
        for (int j = 0; j < N; ++j) {
          if (!visible(s, i, j))
            continue;
          p[j] /= sum;
          for (int c = 0; c < D; ++c)
            oi[c] += p[j] * v[(kh + j) * D + c];
        }
        r.m[qh + i] = (mx + std::log(sum)) / std::log(2.0);
        const float *doi = &d_o[(qh + i) * D];
        double delta = 0;
        for (int c = 0; c < D; ++c)
          delta += double(doi[c]) * oi[c];
        r.delta[qh + i] = delta;
        for (int j = 0; j < N; ++j) {
          if (!visible(s, i, j))
            continue;
          double dpj = 0;
          for (int c = 0; c < D; ++c)
            dpj += double(doi[c]) * v[(kh + j) * D + c];
          const double ds = p[j] * (dpj - delta) * s.sm_scale;
          for (int c = 0; c < D; ++c) {
            r.dq[(qh + i) * D + c] += ds * k[(kh + j) * D + c];
            r.dk[(kh + j) * D + c] += ds * qi[c];
            r.dv[(kh + j) * D + c] += p[j] * doi[c];
          }
        }
      }
    }
  return r;
}

// Compares got with want: each element within rel * (|want| + the tensor's RMS) (a value that
// cancels to near zero may be off by the rounding of its larger terms) plus 1e-6 (gradients
// that are exactly 0, such as those of a row with a single key, come out as rounding noise).
// NaN (an element the kernels missed) fails.
template <class G>
bool compare(const char *what, const G *got, const std::vector<double> &want, double rel) {
  double rms = 0;
  for (double w : want)
    rms += w * w;
  rms = std::sqrt(rms / std::max<size_t>(want.size(), 1));
  size_t bad = 0;
  double worst = 0; // the largest error relative to its tolerance
  for (size_t i = 0; i < want.size(); ++i) {
    const double g = double(float(got[i]));
    const double err = std::fabs(g - want[i]), tol = rel * (std::fabs(want[i]) + rms) + 1e-6;
    if (!(err <= tol)) {
      if (bad < 3)
        std::printf("\n    %s mismatch at %zu: got %g, want %g", what, i, g, want[i]);
      ++bad;
    }
    worst = std::isnan(err) ? INFINITY : std::max(worst, err / tol);
  }
  std::printf(" %s %s (%.2f)", what, bad ? "FAIL" : "ok", worst);
  return bad == 0;
}

template <class T> const char *type_name() { return std::is_same_v<T, tl::half> ? "fp16" : "bf16"; }

/// n values uniform in [lo, hi) rounded to T; `exact` holds them as floats.
template <class T>
std::vector<T> random_tensor(example::Random &rng, size_t n, float scale,
                             std::vector<float> &exact) {
  std::vector<T> v(n);
  exact.resize(n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = T(scale * rng.next());
    exact[i] = float(v[i]);
  }
  return v;
}

template <class T> bool check(const Shape &s, const Config &c, bool gpu) {
  example::Random rng{0xa77e11ull + uint64_t(s.N) * 131 + s.D * 7 + s.causal * 3 + s.window};
  std::vector<float> qf, kf, vf, dof;
  // Q twice as large: scores of a few units, so the softmax is far from uniform and the
  // online rescaling matters.
  std::vector<T> q = random_tensor<T>(rng, s.q_elems(), 2.0f, qf);
  std::vector<T> k = random_tensor<T>(rng, s.kv_elems(), 1.0f, kf);
  std::vector<T> v = random_tensor<T>(rng, s.kv_elems(), 1.0f, vf);
  std::vector<T> d_o = random_tensor<T>(rng, s.q_elems(), 1.0f, dof);
  std::vector<T> o(s.q_elems()), dq(s.q_elems()), dk(s.kv_elems()), dv(s.kv_elems());
  std::vector<float> m(s.rows()), delta(s.rows());
  Tensors<T> t{q.data(),  k.data(),  v.data(),  d_o.data(), o.data(),
               dq.data(), dk.data(), dv.data(), m.data(),   delta.data()};
  Reference want = reference(s, qf, kf, vf, dof);

  // Rounding: P and dS are rounded to T before their products, results are stored as T.
  const bool bf16 = std::is_same_v<T, tl::bfloat16>;
  const double tol = bf16 ? 3e-2 : 5e-3;
  std::printf("%s Z=%d H=%d H_KV=%d N=%-4d D=%-3d %-10s window=%-3d %s\n  forward ", type_name<T>(),
              s.Z, s.H, s.H_KV, s.N, s.D, s.causal ? "causal" : "non-causal", s.window,
              c == example::kAutotuned ? "autotuned" : "small blocks");
  if (gpu)
    example::forward_on_gpu(s, t, c);
  else
    example::forward_in_interpreter(s, t, c);
  bool ok = compare("O", o.data(), want.o, tol);
  ok &= compare("M", m.data(), want.m, 1e-4);
  std::printf("\n  backward");
  if (gpu)
    example::backward_on_gpu(s, t, c);
  else
    example::backward_in_interpreter(s, t, c);
  ok &= compare("delta", delta.data(), want.delta, 2 * tol);
  ok &= compare("dQ", dq.data(), want.dq, 2 * tol);
  ok &= compare("dK", dk.data(), want.dk, 2 * tol);
  ok &= compare("dV", dv.data(), want.dv, 2 * tol);
  std::printf("\n");
  return ok;
}

Shape shape(int Z, int H, int H_KV, int N, int D, bool causal, int window) {
  return Shape{Z, H, H_KV, N, D, causal, window, float(1.0 / std::sqrt(double(D)))};
}

bool run_checks(const example::RunOptions &run) {
  bool ok = true;
  auto both = [&](const Shape &s, const Config &c) {
    ok &= check<tl::half>(s, c, run.gpu);
    ok &= check<tl::bfloat16>(s, c, run.gpu);
  };
  // Every variant with small blocks: N = 67 spans 3 query and 5 key blocks of
  // kSmallConfig, ending mid-block; the window (24) spans parts of 2 or 3 key blocks.
  for (int d : {64, 128})
    for (bool causal : {false, true})
      for (int window : {0, 24})
        both(shape(2, 4, 2, 67, d, causal, window), example::kSmallConfig);
  // Edge cases: one row and four query heads over one K/V head; plain multi-head attention.
  both(shape(1, 4, 1, 1, 64, true, 0), example::kSmallConfig);
  both(shape(1, 2, 2, 33, 64, false, 0), example::kSmallConfig);
  if (run.gpu && !run.has("--quick")) {
    // The autotuned kernels (their configs' blocks of 32 to 128) on a few variants, and a
    // longer sequence.
    for (int n : {100, 1000}) {
      ok &= check<tl::half>(shape(2, 4, 2, n, 64, true, 0), example::kAutotuned, run.gpu);
      ok &= check<tl::half>(shape(2, 4, 2, n, 128, false, 0), example::kAutotuned, run.gpu);
      ok &= check<tl::bfloat16>(shape(2, 4, 2, n, 128, true, 0), example::kAutotuned, run.gpu);
      ok &= check<tl::half>(shape(2, 4, 1, n, 64, false, n / 3), example::kAutotuned, run.gpu);
      ok &= check<tl::bfloat16>(shape(2, 4, 4, n, 64, true, n / 5), example::kAutotuned, run.gpu);
    }
    both(shape(2, 4, 2, 1000, 128, true, 0), example::kSmallConfig);
  }
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  return example::run_example(argc, argv, {"kernels", {"--quick"}, run_checks});
}
