// While loops: a data-dependent trip count carrying a tile and a scalar, and a spin lock
// (Triton tutorial 05's pattern) guarding a read-modify-write shared by all programs.
#include <tilec/tl.h>

// out[i] = number of halvings (integer division by 2) until x[i] < 1, computed for the whole
// tile at once: the loop runs while any lane still needs halving.
template <int BLOCK>
TILEC_KERNEL void halvings(const int *x, int *out, int *lock, int *total, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0);
  auto count = tl::zeros<int, BLOCK>();
  int rounds = 0;
  while (tl::max(v) >= 1) {
    count = count + tl::where(v >= 1, 1, 0);
    v = v / 2;
    rounds += 1;
  }
  tl::store(out + offs, count, mask);
  // Every program adds its number of rounds to *total under a lock.
  while (tl::atomic_cas(lock, 0, 1) == 1) {
  }
  tl::store(total, tl::load(total) + rounds);
  tl::atomic_xchg(lock, 0);
}
