// Atomics beyond add/max/min: bit flags set, cleared and toggled with atomic_or / atomic_and /
// atomic_xor (32- and 64-bit), and sums accumulated in half or bfloat16 with atomic_add on a
// template element type. Values are small integers so that every order of the adds gives
// the same exact sums, and the GPU must match the interpreter bit for bit.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void flag_bits(const int32_t *x, uint32_t *set, uint32_t *cleared,
                            int64_t *toggled, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0);
  auto word = v % 8;
  auto bit = 1u << tl::cast<uint32_t>((v / 8) % 32);
  tl::atomic_or(set + word, bit, mask);
  tl::atomic_and(cleared + word, ~bit, mask);
  tl::atomic_xor(toggled + word, tl::cast<int64_t>(bit), mask);
}

template <class T, int BLOCK>
TILEC_KERNEL void small_sums(const T *x, T *sums, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::atomic_add(sums + offs % 16, tl::load(x + offs, mask), mask);
}

// Counts and maxima with orderings other than the default (Triton's sem= / scope=): the values
// are the same whatever the ordering. The last counts every lane through a plain pointer.
template <int BLOCK>
TILEC_KERNEL void ordered_counts(const int32_t *x, int32_t *counts, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0);
  tl::atomic_add(counts + v % 8, 1, mask, tl::sem::relaxed);
  tl::atomic_max(counts + 8 + v % 4, v, mask, tl::sem::release, tl::scope::sys);
  tl::atomic_min(counts + 12 + v % 4, v, mask, tl::sem::acquire);
  tl::atomic_add(counts + 16, 1, mask, tl::sem::relaxed); // one location, once per lane
}
