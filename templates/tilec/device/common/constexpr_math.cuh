// constexpr_math.cuh: integer helpers that generated code uses in constant expressions
// (vector widths, layout sizes, the facts of the contiguity analysis).
#pragma once

namespace tilec {

__host__ __device__ constexpr long long cmin(long long a, long long b) { return a < b ? a : b; }
__host__ __device__ constexpr long long cmax(long long a, long long b) { return a > b ? a : b; }

__host__ __device__ constexpr long long gcd(long long a, long long b) {
  return b == 0 ? (a < 0 ? -a : a) : gcd(b, a % b);
}

/// The largest power of two dividing `a` (2^30 for 0: divisible by anything we care about).
__host__ __device__ constexpr long long pow2_factor(long long a) {
  return a == 0 ? (1ll << 30) : (a < 0 ? -a : a) & -(a < 0 ? -a : a);
}

/// The largest power of two <= n, and at least 1: a usable vector width.
__host__ __device__ constexpr int vector_width(long long n) {
  int w = 1;
  while (2ll * w <= n && w < 64)
    w *= 2;
  return w;
}

/// A bound on a layout's runs that bounds nothing: vector_width never goes past it (the arm of
/// a bound that holds only in some specializations).
inline constexpr int kAnyRun = 64;

/// Bytes of shared memory a kernel reserves as scratch for reductions, scans and scalar
/// atomics (one value per warp of up to 32 warps, 16 bytes each).
inline constexpr int kScratchBytes = 512;

/// Whether `n` can be a tile dimension (a power of two up to 2^20). Kernels check their
/// dimensions that depend on template parameters with it, naming each.
__host__ __device__ constexpr bool tile_dim_ok(long long n) {
  return n > 0 && n <= (1ll << 20) && (n & (n - 1)) == 0;
}

/// Whether a tile of these dimensions is within Triton's limit of 2^20 elements. Kernels check
/// their shapes that depend on template parameters with it (a config's BLOCK sizes may each be
/// valid and still make too large a tile, which would take the compiler minutes to unroll).
template <class... D> __host__ __device__ constexpr bool tile_elems_ok(D... dims) {
  long long n = 1;
  bool ok = true;
  ((n *= (long long)dims, ok = ok && n <= (1ll << 20)), ...);
  return ok;
}

/// Static shared memory a thread block may have on every architecture (more must be dynamic).
inline constexpr int kMaxStaticSmemBytes = 48 * 1024;

} // namespace tilec
