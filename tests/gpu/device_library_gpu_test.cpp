// The device library on a real GPU: reductions, arg reductions, scans, Philox random numbers,
// atomics and block broadcasts of templates/tilec/device/, through hand-written kernels that
// include <tilec/device.cuh>, checked against CPU references.
#include "gpu_test_support.h"

#include <tilec/runtime.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <vector>

namespace {

inline constexpr tilec::Source source = {"device_library_gpu_test.cu", R"tilec_cuda(
#include <tilec/device.cuh>

// Composition of affine maps x -> m * x + a (mod 2^32), packed as m | a << 32: associative
// but not commutative, so it shows the order in which a scan combines.
struct AffineOp {
  __device__ unsigned long long operator()(unsigned long long f, unsigned long long g) const {
    const unsigned fm = unsigned(f), fa = unsigned(f >> 32), gm = unsigned(g), ga = unsigned(g >> 32);
    return (unsigned long long)(gm * fm) | (unsigned long long)(gm * fa + ga) << 32;
  }
};

// OP: 0 sum, 1 max, 2 min, 3 xor, 4 sum through a lambda.
template <class L, int OP, class T> __device__ T reduce_with(const T* v, int tid, unsigned char* smem) {
  if constexpr (OP == 0) return tilec::reduce_tile<L>(v, tilec::SumOp{}, tid, smem);
  else if constexpr (OP == 1) return tilec::reduce_tile<L>(v, tilec::MaxOp{}, tid, smem);
  else if constexpr (OP == 2) return tilec::reduce_tile<L>(v, tilec::MinOp{}, tid, smem);
  else if constexpr (OP == 3) return tilec::reduce_tile<L>(v, tilec::XorOp{}, tid, smem);
  else return tilec::reduce_tile<L>(v, [](T a, T b) { return tilec::SumOp{}(a, b); }, tid, smem);
}

// Block b reduces x[b * SIZE, (b + 1) * SIZE); every thread writes what it got.
template <class T, int SIZE, int OP, int MAX_VEC, int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void reduce_kernel(const T* x, T* out, int* arg) {
  constexpr int THREADS = NUM_WARPS * 32;
  using L = tilec::Blocked1D<SIZE, THREADS, MAX_VEC>;
  __shared__ alignas(16) unsigned char smem[tilec::REDUCE_SMEM_BYTES];
  const int tid = threadIdx.x;
  T v[L::ELEMS];
  for (int i = 0; i < L::ELEMS; ++i)
    v[i] = x[size_t(blockIdx.x) * SIZE + L::coord(tid, i)];
  // Back to back on the same smem: each call must leave it free.
  const T r = reduce_with<L, OP>(v, tid, smem);
  const int amax = tilec::arg_reduce_tile<L, true>(v, tid, smem);
  const int amin = tilec::arg_reduce_tile<L, false>(v, tid, smem);
  const int amax_skip = tilec::arg_reduce_tile<L, true, T, false>(v, tid, smem);
  const int amin_skip = tilec::arg_reduce_tile<L, false, T, false>(v, tid, smem);
  const size_t o = size_t(blockIdx.x) * THREADS + tid;
  out[o] = r;
  arg[4 * o] = amax;
  arg[4 * o + 1] = amin;
  arg[4 * o + 2] = amax_skip;
  arg[4 * o + 3] = amin_skip;
}

// OP: 0 sum, 1 affine composition, 2 max. Every thread writes its whole tile (copies too),
// then the max of the scanned tile (a reduction right after the scan, on the same smem).
template <class T, int SIZE, int OP, bool REVERSE, int MAX_VEC, int NUM_WARPS, int NUM_STAGES,
          unsigned DIV16>
__global__ void scan_kernel(const T* x, T* out, T* after) {
  constexpr int THREADS = NUM_WARPS * 32;
  using L = tilec::Blocked1D<SIZE, THREADS, MAX_VEC>;
  __shared__ alignas(16) unsigned char smem[tilec::REDUCE_SMEM_BYTES];
  const int tid = threadIdx.x;
  T v[L::ELEMS];
  for (int i = 0; i < L::ELEMS; ++i)
    v[i] = x[size_t(blockIdx.x) * SIZE + L::coord(tid, i)];
  if constexpr (OP == 0) tilec::scan_tile<L, T, tilec::SumOp, REVERSE>(v, tilec::SumOp{}, tid, smem);
  else if constexpr (OP == 1) tilec::scan_tile<L, T, AffineOp, REVERSE>(v, AffineOp{}, tid, smem);
  else tilec::scan_tile<L, T, tilec::MaxOp, REVERSE>(v, tilec::MaxOp{}, tid, smem);
  const size_t o = size_t(blockIdx.x) * THREADS + tid;
  for (int i = 0; i < L::ELEMS; ++i)
    out[o * L::ELEMS + i] = v[i];
  after[o] = tilec::reduce_tile<L>(v, tilec::MaxOp{}, tid, smem);
}

// kat: n_kat vectors of 6 words (counter, key) -> kat_out 4 words each. Then for offsets
// offset0 + i: randint, rand, randn and randn4x.
template <int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void random_kernel(const unsigned* kat, unsigned* kat_out, int n_kat, unsigned* ints,
                              float* unif, float* normal, float* normal4,
                              unsigned long long seed, unsigned offset0, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n_kat) {
    const unsigned* k = kat + 6 * i;
    const uint4 w = tilec::philox(k[0], k[1], k[2], k[3], k[4], k[5]);
    kat_out[4 * i] = w.x;
    kat_out[4 * i + 1] = w.y;
    kat_out[4 * i + 2] = w.z;
    kat_out[4 * i + 3] = w.w;
  }
  if (i < n) {
    const unsigned offset = offset0 + unsigned(i);
    ints[i] = tilec::randint(seed, offset);
    unif[i] = tilec::rand(seed, offset);
    normal[i] = tilec::randn(seed, offset);
    const float4 q = tilec::randn4x(seed, offset);
    normal4[4 * i] = q.x;
    normal4[4 * i + 1] = q.y;
    normal4[4 * i + 2] = q.z;
    normal4[4 * i + 3] = q.w;
  }
}

template <class T> __device__ bool same_bits(T a, T b) {
  if constexpr (sizeof(T) == 8) return tilec::bitcast<unsigned long long>(a) == tilec::bitcast<unsigned long long>(b);
  else return tilec::bitcast<unsigned>(a) == tilec::bitcast<unsigned>(b);
}

// Thread i applies vals[i] to addrs[i % n_addr] and writes the old value to olds[i].
// MODE: 0 add, 1 max, 2 min, 3 xchg, 4 add through a cas loop, 5 add (relaxed, cta scope is
// wrong across blocks, so gpu scope).
template <class T, int MODE, int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void atomic_kernel(T* addrs, int n_addr, const T* vals, T* olds, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  T* p = addrs + i % n_addr;
  const T v = vals[i];
  T old;
  if constexpr (MODE == 0) old = tilec::atomic_add(p, v);
  else if constexpr (MODE == 1) old = tilec::atomic_max(p, v);
  else if constexpr (MODE == 2) old = tilec::atomic_min(p, v);
  else if constexpr (MODE == 3) old = tilec::atomic_xchg(p, v);
  else if constexpr (MODE == 4) {
    old = *static_cast<volatile T*>(p);
    for (;;) {
      const T seen = tilec::atomic_cas(p, old, T(old + v));
      if (same_bits(seen, old))
        break;
      old = seen;
    }
  } else {
    old = tilec::atomic_add<tilec::MemSem::relaxed, tilec::MemScope::gpu>(p, v);
  }
  olds[i] = old;
}

// Every thread gets thread (blockIdx.x % THREADS)'s value, then thread (THREADS - 1)'s.
template <int NUM_WARPS, int NUM_STAGES, unsigned DIV16>
__global__ void broadcast_kernel(long long* out) {
  constexpr int THREADS = NUM_WARPS * 32;
  __shared__ alignas(16) unsigned char smem[tilec::REDUCE_SMEM_BYTES];
  const int tid = threadIdx.x;
  const long long mine = 1000ll * blockIdx.x + tid;
  const long long a = tilec::block_broadcast(mine, int(blockIdx.x % THREADS), smem);
  const long long b = tilec::block_broadcast(mine * 3, THREADS - 1, smem);
  out[2 * (size_t(blockIdx.x) * THREADS + tid)] = a;
  out[2 * (size_t(blockIdx.x) * THREADS + tid) + 1] = b;
}
)tilec_cuda"};

/// Launches a test kernel: `user` are its template arguments before NUM_WARPS, then
/// num_warps, num_stages 1 and DIV16 0 (the kernels ignore both).
void launch(tilec::Kernel &kernel, std::initializer_list<int64_t> user, int num_warps,
            uint32_t blocks, void **params) {
  tilec::SpecKey key;
  for (int64_t v : user)
    key.push(v);
  key.push(num_warps);
  key.push(1);
  key.push(0);
  kernel.launch(key, tilec::Grid{blocks}, num_warps * 32, 0, nullptr, params);
}

/// The host side of tilec::Blocked1D<size, threads, max_vec>.
struct HostLayout {
  int size, threads, vec, span, runs, elems;
  bool replicated;
  HostLayout(int size_, int threads_, int max_vec)
      : size(size_), threads(threads_), vec(std::min(max_vec, std::max(1, size_ / threads_))),
        span(threads_ * vec), runs(0), elems(0), replicated(size_ < span) {
    runs = replicated ? 1 : size / span;
    elems = runs * vec;
  }
  int coord(int tid, int i) const {
    int c = (i / vec) * span + tid * vec + i % vec;
    return replicated ? (c & (size - 1)) : c;
  }
};

template <class T> bool same_value(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    return (std::isnan(a) && std::isnan(b)) || a == b;
  else
    return a == b;
}

template <class T> float as_float(T x) { return float(x); }

// ---- reductions ----

struct ReduceCase {
  int size, num_warps, max_vec;
};

const ReduceCase kReduceCases[] = {
    {16, 4, 4},                  // replicated: 8 copies of 16 elements, shuffles within 16 lanes
    {64, 4, 4},                  // replicated: 2 copies over 2 warps each, through smem
    {1, 4, 4},                   // one element, 128 copies
    {128, 1, 4},                 // one warp
    {1024, 4, 4},  {4096, 8, 4}, // 4 runs of 4 per thread
    {2048, 32, 2},               // 32 warps
    {512, 32, 4},                // replicated over 16 warps each
    {4096, 2, 1},                // 64 runs of 1
};

/// CPU argmax/argmin with the library's rule: NaN first (nan_wins) or last, then
/// larger/smaller, then the smaller index.
template <class T> int host_arg(const T *x, int n, bool is_max, bool nan_wins) {
  int best = 0;
  // Integers compare as themselves (a float would merge distinct 32-bit values).
  auto key = [](T v) {
    if constexpr (std::is_same_v<T, tl::half>)
      return float(v);
    else
      return v;
  };
  auto is_nan = [](auto v) {
    if constexpr (std::is_floating_point_v<decltype(v)>)
      return std::isnan(v);
    else
      return false;
  };
  for (int i = 1; i < n; ++i) {
    const auto a = key(x[best]), b = key(x[i]);
    const bool a_nan = is_nan(a), b_nan = is_nan(b);
    bool take_b;
    if (a_nan || b_nan)
      take_b = nan_wins ? b_nan && !a_nan : a_nan && !b_nan;
    else
      take_b = is_max ? b > a : b < a;
    if (take_b)
      best = i;
  }
  return best;
}

template <class T> T host_reduce(const T *x, int n, int op) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, tl::half>) {
    float acc = as_float(x[0]);
    for (int i = 1; i < n; ++i) {
      const float b = as_float(x[i]);
      acc = op == 1 ? std::fmax(acc, b) : op == 2 ? std::fmin(acc, b) : acc + b;
    }
    if constexpr (std::is_same_v<T, double>) {
      double d = x[0];
      for (int i = 1; i < n; ++i)
        d = op == 1 ? std::fmax(d, x[i]) : op == 2 ? std::fmin(d, x[i]) : d + x[i];
      return d;
    }
    return T(acc);
  } else {
    T acc = x[0];
    for (int i = 1; i < n; ++i)
      acc = op == 1   ? std::max(acc, x[i])
            : op == 2 ? std::min(acc, x[i])
            : op == 3 ? T(acc ^ x[i])
                      : T(acc + x[i]);
    return acc;
  }
}

/// Runs reduce_kernel<T, size, op, max_vec> over `blocks` tiles of x and checks every
/// thread's result and both arg reductions against the CPU.
template <class T> void check_reduce(const ReduceCase &c, int op, const std::vector<T> &x) {
  static tilec::Kernel kernel(source, "reduce_kernel", "tiii");
  const int threads = c.num_warps * 32, blocks = int(x.size() / c.size);
  tilec_test::DeviceBuffer dx(x.size() * sizeof(T)), dout(size_t(blocks) * threads * sizeof(T)),
      darg(size_t(blocks) * threads * 4 * sizeof(int));
  dx.upload(x);
  dout.fill(0xff); // poison: NaN for floats, -1 for integers
  darg.fill(0xff);
  const T *px = dx.as<T>();
  T *pout = dout.as<T>();
  int *parg = darg.as<int>();
  void *params[] = {&px, &pout, &parg};
  launch(kernel, {tilec::type_id<T>(), c.size, op, c.max_vec}, c.num_warps, blocks, params);
  tilec_test::synchronize();
  const auto out = dout.download<T>();
  const auto arg = darg.download<int>();
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    const T *tile = x.data() + size_t(b) * c.size;
    const T want = host_reduce(tile, c.size, op);
    const int want_arg[4] = {
        host_arg(tile, c.size, true, true), host_arg(tile, c.size, false, true),
        host_arg(tile, c.size, true, false), host_arg(tile, c.size, false, false)};
    for (int t = 0; t < threads; ++t) {
      const size_t o = size_t(b) * threads + t;
      if (!same_value(out[o], want) && bad++ < 5)
        ADD_FAILURE() << "size " << c.size << " warps " << c.num_warps << " op " << op << " block "
                      << b << " thread " << t << ": " << as_float(out[o]) << ", expected "
                      << as_float(want);
      for (int k = 0; k < 4; ++k)
        if (arg[4 * o + k] != want_arg[k] && bad++ < 5)
          ADD_FAILURE() << "size " << c.size << " warps " << c.num_warps << " block " << b
                        << " thread " << t << ": " << (k % 2 ? "argmin" : "argmax")
                        << (k < 2 ? " (NaN wins) " : " (NaN loses) ") << arg[4 * o + k]
                        << ", expected " << want_arg[k];
    }
  }
  EXPECT_EQ(bad, 0) << "size " << c.size << " warps " << c.num_warps << " op " << op;
}

/// Small integers as T: sums stay exact, and ties are frequent (argmax tie-breaks).
template <class T> std::vector<T> small_ints(size_t n, int lo, int hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<T> v(n);
  for (auto &e : v)
    e = T(dist(rng));
  return v;
}

TEST(DeviceLibrary, ReduceFloat) {
  REQUIRE_GPU();
  for (const ReduceCase &c : kReduceCases)
    for (int op : {0, 1, 2, 4})
      check_reduce(c, op, small_ints<float>(size_t(c.size) * 3, -20, 20, c.size + op));
}

TEST(DeviceLibrary, ReduceFloatWithNaN) {
  REQUIRE_GPU();
  for (const ReduceCase &c : kReduceCases) {
    auto x = small_ints<float>(size_t(c.size) * 3, -20, 20, c.size);
    // Block 0: two NaNs (max/min skip them; the arg reductions pick the first NaN, or skip
    // them with NAN_WINS = false); block 1: none; block 2: all NaN (index 0 either way).
    x[size_t(c.size) - 1] = NAN;
    x[size_t(c.size) / 2] = NAN;
    for (int i = 0; i < c.size; ++i)
      x[size_t(2) * c.size + i] = NAN;
    for (int op : {1, 2})
      check_reduce(c, op, x);
  }
}

TEST(DeviceLibrary, ReduceIntegers) {
  REQUIRE_GPU();
  for (const ReduceCase &c : kReduceCases) {
    for (int op : {0, 1, 2, 3})
      check_reduce(c, op, small_ints<int32_t>(size_t(c.size) * 3, -1000, 1000, c.size + op));
    std::mt19937 rng(c.size);
    std::vector<uint32_t> u(size_t(c.size) * 3);
    for (auto &e : u)
      e = uint32_t(rng());
    check_reduce(c, 3, u);
    check_reduce(c, 1, u);
  }
}

TEST(DeviceLibrary, ReduceDoubleAndHalf) {
  REQUIRE_GPU();
  for (const ReduceCase &c : kReduceCases) {
    check_reduce(c, 0, small_ints<double>(size_t(c.size) * 3, -20, 20, c.size));
    check_reduce(c, 1, small_ints<double>(size_t(c.size) * 3, -20, 20, c.size + 1));
    auto h = small_ints<float>(size_t(c.size) * 3, -4, 4, c.size);
    std::vector<tl::half> hh(h.begin(), h.end());
    for (int op : {1, 2})
      check_reduce(c, op, hh);
    if (c.size <= 64) // |sum| <= 256: exact in half whatever the order
      check_reduce(c, 0, hh);
  }
}

// ---- scans ----

const ReduceCase kScanCases[] = {
    {16, 4, 4},   {64, 4, 4},    {8, 1, 1},    {32, 1, 4},   {1, 2, 4},    {1024, 4, 4},
    {4096, 8, 4}, {2048, 32, 2}, {256, 16, 4}, {4096, 2, 1}, {4096, 4, 8},
};

uint64_t affine(uint64_t f, uint64_t g) {
  const uint32_t fm = uint32_t(f), fa = uint32_t(f >> 32), gm = uint32_t(g), ga = uint32_t(g >> 32);
  return uint64_t(gm * fm) | uint64_t(gm * fa + ga) << 32;
}

template <class T> T host_combine(T a, T b, int op) {
  if constexpr (std::is_same_v<T, uint64_t>) {
    if (op == 1)
      return affine(a, b);
  }
  if (op == 2)
    return std::max(a, b);
  return T(a + b);
}

template <class T>
void check_scan(const ReduceCase &c, int op, bool reverse, const std::vector<T> &x) {
  static tilec::Kernel kernel(source, "scan_kernel", "tiibi");
  const HostLayout layout(c.size, c.num_warps * 32, c.max_vec);
  const int threads = layout.threads, blocks = int(x.size() / c.size);
  tilec_test::DeviceBuffer dx(x.size() * sizeof(T)),
      dout(size_t(blocks) * threads * layout.elems * sizeof(T)),
      dafter(size_t(blocks) * threads * sizeof(T));
  dx.upload(x);
  dout.fill(0xff);
  dafter.fill(0xff);
  const T *px = dx.as<T>();
  T *pout = dout.as<T>(), *pafter = dafter.as<T>();
  void *params[] = {&px, &pout, &pafter};
  launch(kernel, {tilec::type_id<T>(), c.size, op, reverse ? 1 : 0, c.max_vec}, c.num_warps, blocks,
         params);
  tilec_test::synchronize();
  const auto out = dout.download<T>();
  const auto after = dafter.download<T>();
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    const T *tile = x.data() + size_t(b) * c.size;
    std::vector<T> want(c.size);
    for (int k = 0; k < c.size; ++k) {
      const int i = reverse ? c.size - 1 - k : k, prev = reverse ? i + 1 : i - 1;
      want[i] = k == 0 ? tile[i] : host_combine(want[prev], tile[i], op);
    }
    const T want_max = *std::max_element(want.begin(), want.end());
    for (int t = 0; t < threads; ++t) {
      const size_t o = size_t(b) * threads + t;
      for (int e = 0; e < layout.elems; ++e) {
        const int idx = layout.coord(t, e);
        if (!same_value(out[o * layout.elems + e], want[idx]) && bad++ < 5)
          ADD_FAILURE() << "size " << c.size << " warps " << c.num_warps << " op " << op
                        << (reverse ? " reverse" : "") << " block " << b << " thread " << t
                        << " index " << idx << ": " << out[o * layout.elems + e] << ", expected "
                        << want[idx];
      }
      if (!same_value(after[o], want_max) && bad++ < 5)
        ADD_FAILURE() << "size " << c.size << " max after the scan: " << after[o] << ", expected "
                      << want_max;
    }
  }
  EXPECT_EQ(bad, 0) << "size " << c.size << " warps " << c.num_warps << " op " << op
                    << (reverse ? " reverse" : "");
}

TEST(DeviceLibrary, ScanSumAndMax) {
  REQUIRE_GPU();
  for (const ReduceCase &c : kScanCases)
    for (bool reverse : {false, true}) {
      check_scan(c, 0, reverse, small_ints<int32_t>(size_t(c.size) * 3, -100, 100, c.size));
      check_scan(c, 2, reverse, small_ints<int32_t>(size_t(c.size) * 3, -100000, 100000, 7));
      check_scan(c, 0, reverse, small_ints<float>(size_t(c.size) * 3, -20, 20, c.size + 1));
    }
}

TEST(DeviceLibrary, ScanKeepsTileOrder) {
  REQUIRE_GPU();
  for (const ReduceCase &c : kScanCases)
    for (bool reverse : {false, true}) {
      std::mt19937_64 rng(c.size * 2 + reverse);
      std::vector<uint64_t> x(size_t(c.size) * 3);
      for (auto &e : x)
        e = rng() | 1u; // odd multipliers keep information
      check_scan(c, 1, reverse, x);
    }
}

// ---- random numbers ----

void host_philox(uint32_t c[4], uint32_t k0, uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t(0xD2511F53u) * c[0], p1 = uint64_t(0xCD9E8D57u) * c[2];
    const uint32_t n0 = uint32_t(p1 >> 32) ^ c[1] ^ k0, n2 = uint32_t(p0 >> 32) ^ c[3] ^ k1;
    c[0] = n0;
    c[1] = uint32_t(p1);
    c[2] = n2;
    c[3] = uint32_t(p0);
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

float host_uniform(uint32_t bits) {
  int64_t x = int32_t(bits);
  if (x < 0)
    x = -x - 1;
  return float(int32_t(x)) * 4.6566127342e-10f;
}

TEST(DeviceLibrary, PhiloxAndRandomNumbers) {
  REQUIRE_GPU();
  static tilec::Kernel kernel(source, "random_kernel", "");
  // Random123's known answers, then random counters/keys against the CPU Philox.
  std::vector<uint32_t> kat = {0,          0,          0,          0,          0,
                               0,          0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
                               0xffffffff, 0xffffffff, 0x243f6a88, 0x85a308d3, 0x13198a2e,
                               0x03707344, 0xa4093822, 0x299f31d0};
  const std::vector<uint32_t> kat_want = {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8,
                                          0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd,
                                          0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1};
  std::mt19937 rng(5);
  for (int i = 0; i < 6 * 61; ++i)
    kat.push_back(uint32_t(rng()));
  const int n_kat = int(kat.size() / 6);
  for (uint64_t seed : {uint64_t(0), uint64_t(42), uint64_t(0x123456789abcdef0ull)}) {
    const int n = 1 << 16;
    const uint32_t offset0 = seed == 42 ? 0xffff8000u : 0u; // crosses the 2^32 wrap
    tilec_test::DeviceBuffer dkat(kat.size() * 4), dkat_out(size_t(n_kat) * 16), dints(n * 4),
        dunif(n * 4), dnormal(n * 4), dnormal4(size_t(n) * 16);
    dkat.upload(kat);
    for (auto *b : {&dkat_out, &dints, &dunif, &dnormal, &dnormal4})
      b->fill(0xff);
    const unsigned *pkat = dkat.as<unsigned>();
    unsigned *pkat_out = dkat_out.as<unsigned>(), *pints = dints.as<unsigned>();
    float *punif = dunif.as<float>(), *pnormal = dnormal.as<float>(),
          *pnormal4 = dnormal4.as<float>();
    unsigned long long s = seed;
    unsigned off = offset0;
    int nk = n_kat, nn = n;
    void *params[] = {&pkat, &pkat_out, &nk, &pints, &punif, &pnormal, &pnormal4, &s, &off, &nn};
    launch(kernel, {}, 4, uint32_t(n / 128), params);
    tilec_test::synchronize();
    const auto kat_out = dkat_out.download<uint32_t>();
    for (int k = 0; k < 12; ++k)
      EXPECT_EQ(kat_out[k], kat_want[k]) << "known-answer vector " << k / 4 << " word " << k % 4;
    for (int v = 0; v < n_kat; ++v) {
      uint32_t c[4] = {kat[6 * v], kat[6 * v + 1], kat[6 * v + 2], kat[6 * v + 3]};
      host_philox(c, kat[6 * v + 4], kat[6 * v + 5]);
      for (int k = 0; k < 4; ++k)
        ASSERT_EQ(kat_out[4 * v + k], c[k]) << "philox vector " << v << " word " << k;
    }
    const auto ints = dints.download<uint32_t>();
    const auto unif = dunif.download<float>();
    const auto normal = dnormal.download<float>();
    const auto normal4 = dnormal4.download<float>();
    int bad = 0;
    double sum = 0, sum2 = 0;
    for (int i = 0; i < n; ++i) {
      uint32_t c[4] = {offset0 + uint32_t(i), 0, 0, 0};
      host_philox(c, uint32_t(seed), uint32_t(seed >> 32));
      const float u = host_uniform(c[0]);
      const float u1 = std::max(1.0e-7f, u), u2 = host_uniform(c[1]);
      const float r = std::sqrt(-2.0f * std::log(u1)), th = 6.283185307179586f * u2;
      const float z = r * std::cos(th);
      const float u3 = std::max(1.0e-7f, host_uniform(c[2])), u4 = host_uniform(c[3]);
      const float r3 = std::sqrt(-2.0f * std::log(u3)), th3 = 6.283185307179586f * u4;
      const float want4[4] = {z, r * std::sin(th), r3 * std::cos(th3), r3 * std::sin(th3)};
      bool ok = ints[i] == c[0] && std::memcmp(&unif[i], &u, 4) == 0 &&
                std::fabs(normal[i] - z) <= 1e-5f * (1.0f + std::fabs(z));
      for (int k = 0; k < 4; ++k)
        ok = ok && std::fabs(normal4[4 * i + k] - want4[k]) <= 1e-5f * (1.0f + std::fabs(want4[k]));
      ok = ok && unif[i] >= 0.0f && unif[i] <= 1.0f && normal4[4 * i] == normal[i];
      if (!ok && bad++ < 5)
        ADD_FAILURE() << "seed " << seed << " offset " << offset0 + uint32_t(i) << ": randint "
                      << ints[i] << " (want " << c[0] << ") rand " << unif[i] << " (want " << u
                      << ") randn " << normal[i] << " (want " << z << ")";
      sum += normal[i];
      sum2 += double(normal[i]) * normal[i];
    }
    EXPECT_EQ(bad, 0) << "seed " << seed;
    EXPECT_NEAR(sum / n, 0.0, 0.02) << "randn mean";
    EXPECT_NEAR(sum2 / n, 1.0, 0.03) << "randn variance";
  }
}

// ---- atomics ----

/// Runs atomic_kernel<T, mode> with vals.size() threads over init.size() addresses; returns
/// the final memory and fills `olds`.
template <class T>
std::vector<T> run_atomic(int mode, const std::vector<T> &init, const std::vector<T> &vals,
                          std::vector<T> *olds) {
  static tilec::Kernel kernel(source, "atomic_kernel", "ti");
  tilec_test::DeviceBuffer daddr(init.size() * sizeof(T)), dvals(vals.size() * sizeof(T)),
      dolds(vals.size() * sizeof(T));
  daddr.upload(init);
  dvals.upload(vals);
  dolds.fill(0xff);
  T *paddr = daddr.as<T>(), *polds = dolds.as<T>();
  const T *pvals = dvals.as<T>();
  int n_addr = int(init.size()), n = int(vals.size());
  void *params[] = {&paddr, &n_addr, &pvals, &polds, &n};
  launch(kernel, {tilec::type_id<T>(), mode}, 8, uint32_t((n + 255) / 256), params);
  tilec_test::synchronize();
  *olds = dolds.download<T>();
  return daddr.download<T>();
}

/// Sums with many threads on few addresses: the final sums, and (for adds of 1) the old
/// values each address handed out are exactly 0, 1, ..., count - 1.
template <class T> void check_add(int mode, int n, int n_addr, T (*value)(int)) {
  std::vector<T> vals(n), olds;
  for (int i = 0; i < n; ++i)
    vals[i] = value(i);
  const auto final_ = run_atomic<T>(mode, std::vector<T>(n_addr, T(0)), vals, &olds);
  for (int a = 0; a < n_addr; ++a) {
    T want = T(0);
    std::vector<T> seen;
    for (int i = a; i < n; i += n_addr) {
      want = T(want + vals[i]);
      seen.push_back(olds[i]);
    }
    EXPECT_EQ(final_[a], want) << "mode " << mode << " address " << a;
    if (value(0) == T(1) && value(1) == T(1)) {
      std::sort(seen.begin(), seen.end());
      for (size_t k = 0; k < seen.size(); ++k)
        if (seen[k] != T(k)) {
          ADD_FAILURE() << "mode " << mode << " address " << a << ": old values are not 0.."
                        << seen.size() - 1 << " (sorted position " << k << " holds " << seen[k]
                        << ")";
          break;
        }
    }
  }
}

TEST(DeviceLibrary, AtomicAddUnderContention) {
  REQUIRE_GPU();
  const int n = 64 * 256;
  for (int mode : {0, 4, 5}) {
    check_add<int32_t>(mode, n, 8, [](int) { return int32_t(1); });
    check_add<uint32_t>(mode, n, 3, [](int) { return uint32_t(1); });
    check_add<int64_t>(mode, n, 5, [](int i) { return int64_t(i % 11) - (int64_t(1) << 36); });
    check_add<uint64_t>(mode, n, 1, [](int) { return uint64_t(1); });
    check_add<float>(mode, n, 8, [](int i) { return float(i % 7 - 3); }); // exact sums
    check_add<double>(mode, n, 2, [](int i) { return double(i % 13) - 6.5; });
  }
}

/// Float order of the library's atomic max/min: numeric, and -0.0 below +0.0.
template <class T> bool float_less(T a, T b) {
  return a < b || (a == b && std::signbit(a) && !std::signbit(b));
}

template <class T> void check_minmax(bool is_max, const std::vector<T> &vals, int n_addr, T init) {
  std::vector<T> olds;
  const auto final_ = run_atomic<T>(is_max ? 1 : 2, std::vector<T>(n_addr, init), vals, &olds);
  for (int a = 0; a < n_addr; ++a) {
    T want = init;
    for (size_t i = a; i < vals.size(); i += n_addr) {
      const bool better = is_max ? float_less(want, vals[i]) : float_less(vals[i], want);
      if (better)
        want = vals[i];
    }
    EXPECT_TRUE(final_[a] == want && std::signbit(final_[a]) == std::signbit(want))
        << (is_max ? "max" : "min") << " address " << a << ": " << final_[a] << ", expected "
        << want;
    for (size_t i = a; i < vals.size(); i += n_addr)
      if (is_max ? float_less(want, olds[i]) : float_less(olds[i], want)) {
        ADD_FAILURE() << "old value " << olds[i] << " is beyond the final " << want;
        break;
      }
  }
}

template <class T>
void check_int_minmax(bool is_max, const std::vector<T> &vals, int n_addr, T init) {
  std::vector<T> olds;
  const auto final_ = run_atomic<T>(is_max ? 1 : 2, std::vector<T>(n_addr, init), vals, &olds);
  for (int a = 0; a < n_addr; ++a) {
    T want = init;
    for (size_t i = a; i < vals.size(); i += n_addr)
      want = is_max ? std::max(want, vals[i]) : std::min(want, vals[i]);
    EXPECT_EQ(final_[a], want) << (is_max ? "max" : "min") << " address " << a;
  }
}

TEST(DeviceLibrary, AtomicMaxMinWithNegativesAndSignedZeros) {
  REQUIRE_GPU();
  const int n = 64 * 256;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> neg(-100.0f, -0.5f), any(-100.0f, 100.0f);
  // All negative, with -0.0 on some addresses: max must be exactly -0.0 there.
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = (i % 1000 == 3) ? -0.0f : neg(rng);
  check_minmax<float>(true, v, 4, -INFINITY);
  check_minmax<float>(true, v, 7, -1000.0f);
  check_minmax<float>(false, v, 4, INFINITY);
  // Both signs and both zeros: max picks +0.0 over -0.0, min the reverse.
  for (int i = 0; i < n; ++i)
    v[i] = (i % 97 == 0) ? -0.0f : (i % 89 == 0) ? 0.0f : any(rng);
  check_minmax<float>(true, v, 5, -INFINITY);
  check_minmax<float>(false, v, 5, INFINITY);
  std::vector<float> zeros(n);
  for (int i = 0; i < n; ++i)
    zeros[i] = (i % 3 == 0) ? 0.0f : -0.0f;
  check_minmax<float>(true, zeros, 4, -0.0f); // each address sees both zeros
  check_minmax<float>(false, zeros, 4, 0.0f);
  std::vector<double> d(n);
  for (int i = 0; i < n; ++i)
    d[i] = (i % 500 == 1) ? -0.0 : double(neg(rng)) * 1e100;
  check_minmax<double>(true, d, 4, -INFINITY);
  check_minmax<double>(false, d, 4, INFINITY);

  std::vector<int32_t> si(n);
  std::vector<uint32_t> ui(n);
  std::vector<int64_t> sl(n);
  std::vector<uint64_t> ul(n);
  for (int i = 0; i < n; ++i) {
    si[i] = int32_t(rng());
    ui[i] = uint32_t(rng());
    sl[i] = int64_t(uint64_t(rng()) << 32 | rng());
    ul[i] = uint64_t(rng()) << 32 | rng();
  }
  check_int_minmax<int32_t>(true, si, 6, INT32_MIN);
  check_int_minmax<int32_t>(false, si, 6, INT32_MAX);
  check_int_minmax<uint32_t>(true, ui, 6, 0u);
  check_int_minmax<uint32_t>(false, ui, 6, UINT32_MAX);
  check_int_minmax<int64_t>(true, sl, 6, INT64_MIN);
  check_int_minmax<int64_t>(false, sl, 6, INT64_MAX);
  check_int_minmax<uint64_t>(true, ul, 6, 0u);
  check_int_minmax<uint64_t>(false, ul, 6, UINT64_MAX);
}

TEST(DeviceLibrary, AtomicExchangeHandsOutEveryValueOnce) {
  REQUIRE_GPU();
  const int n = 64 * 256;
  std::vector<int32_t> vals(n);
  std::vector<float> fvals(n);
  for (int i = 0; i < n; ++i) {
    vals[i] = i + 1;
    fvals[i] = float(i + 1);
  }
  std::vector<int32_t> olds;
  auto final_ = run_atomic<int32_t>(3, {0}, vals, &olds);
  olds.push_back(final_[0]);
  std::sort(olds.begin(), olds.end());
  for (int k = 0; k <= n; ++k)
    ASSERT_EQ(olds[k], k) << "each of 0..n is the old value of one exchange or the final value";
  std::vector<float> fold;
  auto ffinal = run_atomic<float>(3, {0.0f}, fvals, &fold);
  fold.push_back(ffinal[0]);
  std::sort(fold.begin(), fold.end());
  for (int k = 0; k <= n; ++k)
    ASSERT_EQ(fold[k], float(k));
}

TEST(DeviceLibrary, BlockBroadcast) {
  REQUIRE_GPU();
  static tilec::Kernel kernel(source, "broadcast_kernel", "");
  for (int warps : {1, 4, 32}) {
    const int threads = warps * 32, blocks = 70;
    tilec_test::DeviceBuffer dout(size_t(blocks) * threads * 2 * 8);
    dout.fill(0xff);
    long long *p = dout.as<long long>();
    void *params[] = {&p};
    launch(kernel, {}, warps, blocks, params);
    tilec_test::synchronize();
    const auto out = dout.download<long long>();
    int bad = 0;
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < threads; ++t) {
        const size_t o = 2 * (size_t(b) * threads + t);
        const long long a = 1000ll * b + b % threads, c = 3 * (1000ll * b + threads - 1);
        if ((out[o] != a || out[o + 1] != c) && bad++ < 5)
          ADD_FAILURE() << "warps " << warps << " block " << b << " thread " << t << ": " << out[o]
                        << " " << out[o + 1] << ", expected " << a << " " << c;
      }
    EXPECT_EQ(bad, 0);
  }
}

} // namespace
