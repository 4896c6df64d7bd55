// main.cpp - checks dropout_kernel (dropout.cpp): the same seed gives the identical output,
// the kept fraction is close to 1 - p, every kept value is x / (1 - p) and every dropped one
// 0, nothing is written past n, and another seed gives another mask. Runs on the GPU when
// there is one, else in the interpreter.
//
//   dropout [--gpu] [--interpreter]
//     --gpu          require a GPU: exit 77 ("SKIPPED") without one (for ctest)
//     --interpreter  run in the host interpreter even when a GPU is present
#include "runners.h"

#include "example_main.h"
#include "host_check.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr size_t kPad = 1024;

bool run_and_check(int n, float p, bool gpu) {
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = 1.0f + float(i % 1000) / 1000.0f; // never 0, so a dropped element is recognisable
  auto run = [&](int seed) {
    std::vector<float> out(n + kPad);
    if (gpu)
      example::dropout_on_gpu(x.data(), out.data(), n, out.size(), p, seed);
    else
      example::dropout_in_interpreter(x.data(), out.data(), n, out.size(), p, seed);
    return out;
  };
  std::vector<float> a = run(1234), again = run(1234), other = run(4321);

  bool same = std::memcmp(a.data(), again.data(), a.size() * sizeof(float)) == 0;
  size_t kept = 0, wrong = 0, differ = 0, overwritten = 0;
  for (int i = 0; i < n; ++i) {
    if (a[i] != 0.0f) {
      ++kept;
      wrong += a[i] != x[i] / (1.0f - p); // the same float expression as the kernel
    }
    differ += (a[i] != 0.0f) != (other[i] != 0.0f);
  }
  for (size_t i = n; i < a.size(); ++i)
    overwritten += !example::is_poisoned(&a[i], sizeof(float));
  double frac = double(kept) / n;
  // 6 standard deviations of a binomial fraction, plus a little for tiny n.
  double slack = 6 * std::sqrt(p * (1 - p) / n) + 1e-3;
  bool frac_ok = std::fabs(frac - (1 - p)) <= slack;
  // Two independent masks disagree on a fraction 2p(1-p) of the elements.
  bool differ_ok = n < 100 || differ > 0.5 * 2 * p * (1 - p) * n;
  bool ok = same && wrong == 0 && overwritten == 0 && frac_ok && differ_ok;
  std::printf("%-4s n=%-9d p=%.2f kept %.4f (want %.4f +- %.4f)%s%s%s%s\n", ok ? "ok" : "FAIL", n,
              p, frac, 1 - p, slack, same ? "" : ", same seed differs",
              wrong ? ", wrong values" : "", overwritten ? ", wrote past n" : "",
              differ_ok ? "" : ", another seed gives (nearly) the same mask");
  return ok;
}

bool run_checks(const example::RunOptions &run) {
  std::vector<int> sizes = {1, 1000, (1 << 18) + 3};
  if (run.gpu)
    sizes.push_back(1 << 26);
  bool ok = true;
  for (int n : sizes)
    for (float p : {0.1f, 0.5f})
      ok &= run_and_check(n, p, run.gpu);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  return example::run_example(argc, argv, {"kernel", {}, run_checks});
}
