// corpus_support.h - what the corpus tests share: seeded inputs, poisoned outputs and
// comparisons that name the element.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../interpreter/support.h"

namespace corpus {

/// n uniform floats in [lo, hi) from a fixed seed (the interpreter tests' generator).
inline std::vector<float> uniform(size_t n, float lo, float hi, unsigned seed) {
  return tilec_test::random_floats(int(n), lo, hi, seed);
}

/// n floats of poison (every byte 0xff: NaN), which every written element must replace.
inline std::vector<float> poisoned(size_t n) {
  std::vector<float> v(n);
  std::memset(static_cast<void *>(v.data()), 0xff, n * sizeof(float));
  return v;
}

/// |got - want| <= abs + rel * |want|, reported with `what` and the index on failure.
inline ::testing::AssertionResult close(double got, double want, double abs, double rel,
                                        const std::string &what, size_t i) {
  if (std::fabs(got - want) <= abs + rel * std::fabs(want))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << "[" << i << "]: got " << got << ", want " << want;
}

/// Still the poison: an element no one should have written.
inline bool untouched(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return bits == 0xffffffffu;
}

/// f(v[0], ..., v[N - 1]): a launch that takes N values (Mamba's 29 strides) from one list.
template <size_t N, class T, class F> void spread(const std::vector<T> &v, F &&f) {
  EXPECT_EQ(v.size(), N);
  [&]<size_t... I>(std::index_sequence<I...>) { f(v[I]...); }(std::make_index_sequence<N>{});
}

} // namespace corpus
