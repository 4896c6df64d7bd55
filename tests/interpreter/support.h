// Helpers for the interpreter tests: random inputs, poisoned output rows with guard
// elements, and the sizes every numeric test runs at.
#pragma once

#include <tilec/interpret.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace tilec_test {

/// Sizes that are not multiples of any block: one element, a partial block, 2^20 + 3.
inline const std::vector<int> kSizes = {1, 1000, (1 << 20) + 3};

/// Byte written over every output before a run; a kernel that writes a lane it should
/// not (past n, or masked off) leaves a different byte behind.
constexpr unsigned char kPoison = 0xCD;
constexpr int kGuard = 67; // guard elements after each row (more than one block's tail)

/// `rows` output rows of n elements, each followed by kGuard poisoned guard elements.
template <class T> class Rows {
public:
  Rows(int rows, int n) : n_(n), stride_(n + kGuard), data_(size_t(rows) * stride_) {
    std::memset(static_cast<void *>(data_.data()), kPoison, data_.size() * sizeof(T));
  }
  T *data() { return data_.data(); }
  T *row(int r) { return data_.data() + size_t(r) * stride_; }
  int stride() const { return stride_; }
  T at(int r, int i) const { return data_[size_t(r) * stride_ + i]; }
  /// True when every guard element still holds the poison.
  bool guards_intact() const {
    const int rows = int(data_.size() / stride_);
    for (int r = 0; r < rows; ++r) {
      auto *p = reinterpret_cast<const unsigned char *>(data_.data() + size_t(r) * stride_ + n_);
      for (size_t b = 0; b < kGuard * sizeof(T); ++b)
        if (p[b] != kPoison)
          return false;
    }
    return true;
  }

private:
  int n_;
  int stride_;
  std::vector<T> data_;
};

/// n uniform floats in [lo, hi) from a fixed seed.
inline std::vector<float> random_floats(int n, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (auto &x : v)
    x = dist(gen);
  return v;
}

/// n floats with |x| in [lo, hi) and a random sign (safe divisors).
inline std::vector<float> random_nonzero(int n, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::bernoulli_distribution neg(0.5);
  std::vector<float> v(n);
  for (auto &x : v)
    x = neg(gen) ? -dist(gen) : dist(gen);
  return v;
}

/// n integers uniform in [lo, hi] from a fixed seed.
template <class T> std::vector<T> random_ints(int n, int64_t lo, int64_t hi, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  std::vector<T> v(n);
  for (auto &x : v)
    x = T(dist(gen));
  return v;
}

/// Programs needed to cover n elements with blocks of `block`.
inline tilec::Grid grid_for(int n, int block) {
  return tilec::Grid{uint32_t(tilec::cdiv(n, block))};
}

/// Bit-exact float equality (NaN equals NaN of the same payload).
template <class T> bool same_bits(const T &a, const T &b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

} // namespace tilec_test
