// scan.cuh: inclusive scans of a rank-1 tile in tile-index order, in place.
//
// In a Blocked1D layout, element (run r, lane k) of thread t has tile index
// r * THREADS * VEC + t * VEC + k: the runs follow each other, and within a run the threads
// follow each other. So the scan goes run by run: scan the run's VEC elements in the thread,
// scan the threads' run totals across the block (warp shuffles, then the warps' totals through
// shared memory), combine each element with the totals before it, and carry the run's total
// into the next run.
//
// A reverse scan is the forward scan of the tile read backwards: element i becomes
// x[n-1] op x[n-2] op ... op x[i] (the accumulated value is op's first operand). It mirrors the
// order of runs, threads and lanes. Replicated layouts scan each group's copy on its own.
//
// Call contract as reduce.cuh: all threads of the block, blockDim.x == THREADS, `smem` at least
// REDUCE_SMEM_BYTES reserved by the caller and free again when the call returns.
#pragma once

#include <tilec/device/common/reduce.cuh>

namespace tilec {
namespace detail {

/// The scan of one value per thread over each group of GROUP threads, in logical order
/// (thread order, or its mirror when REVERSE): `prefix` is the combination of the values of
/// the logically earlier threads of the group (`has_prefix` false for the first one), and
/// `total` the group's combination. `slots` holds GROUP / 32 values of shared memory; when
/// GROUP > 32 this holds one __syncthreads, after which the caller must not write `slots`
/// again before another barrier. COPIES: the groups hold copies of one tile, so only the
/// first writes `slots`; otherwise every group writes the slots it is given. `inclusive` is
/// the combination up to and including this thread's value. PREFIX false: the caller needs
/// only `inclusive` and `total` (a run of one element), which saves a shuffle; `has_prefix`
/// is then false.
template <int GROUP, bool REVERSE, bool COPIES = true, bool PREFIX = true, class T, class Op>
__device__ inline void group_scan(T x, Op op, int tid, T *slots, bool &has_prefix, T &prefix,
                                  T &total, T &inclusive) {
  constexpr int LANES = GROUP < WARP_SIZE ? GROUP : WARP_SIZE; // lanes of a group in a warp
  const int lane = tid & (WARP_SIZE - 1);
  const int pos = tid & (GROUP - 1);                   // physical position in the group
  const int logical = REVERSE ? GROUP - 1 - pos : pos; // position in scan order
  const int lq = logical & (LANES - 1);                // logical lane within the warp's part
  const int step = REVERSE ? -1 : 1;                   // lane distance of the next position
  // Inclusive scan of the warp's part (Hillis-Steele: log2(LANES) shuffles).
#pragma unroll
  for (int off = 1; off < LANES; off *= 2) {
    T y = shfl_idx(x, (lane - step * off) & (WARP_SIZE - 1));
    if (lq >= off)
      x = T(op(y, x));
  }
  prefix = x; // (unused without PREFIX)
  has_prefix = false;
  if constexpr (PREFIX) {
    prefix = shfl_idx(x, (lane - step) & (WARP_SIZE - 1));
    has_prefix = lq > 0;
  }
  inclusive = x;
  const int last_lane = (lane & ~(LANES - 1)) | (REVERSE ? 0 : LANES - 1);
  total = shfl_idx(x, last_lane);
  if constexpr (GROUP > WARP_SIZE) {
    constexpr int WARPS = GROUP / WARP_SIZE;
    const int warp = logical / WARP_SIZE; // logical warp in the group
    if ((!COPIES || tid < GROUP) && lq == LANES - 1)
      slots[warp] = x;
    __syncthreads();
    // Each warp scans the warps' totals itself: lane l holds total l (mod WARPS).
    T s = slots[lane & (WARPS - 1)];
#pragma unroll
    for (int off = 1; off < WARPS; off *= 2) {
      T y = shfl_idx(s, (lane - off) & (WARP_SIZE - 1));
      if ((lane & (WARPS - 1)) >= off)
        s = T(op(y, s));
    }
    const T warps_before = shfl_idx(s, (warp - 1) & (WARP_SIZE - 1));
    total = shfl_idx(s, WARPS - 1);
    if (warp > 0) {
      inclusive = T(op(warps_before, inclusive));
      if constexpr (PREFIX) {
        prefix = has_prefix ? T(op(warps_before, prefix)) : warps_before;
        has_prefix = true;
      }
    }
  }
}

/// Scans a thread's run of V consecutive elements in place (REVERSE: from the last down).
template <int V, bool REVERSE, class T, class Op> __device__ inline void scan_in_thread(T *run, Op op) {
#pragma unroll
  for (int kk = 1; kk < V; ++kk) {
    const int k = REVERSE ? V - 1 - kk : kk, prev = REVERSE ? k + 1 : k - 1;
    run[k] = T(op(run[prev], run[k]));
  }
}

/// Combines a run of V elements (each already the scan of the run up to it) with what comes
/// before it in its group (`prefix`) and in earlier runs (`carry`). A run of one element takes
/// its group-inclusive value instead, which needs no prefix.
template <int V, class T, class Op>
__device__ inline void finish_run(T *run, Op op, bool has_carry, T carry, bool has_prefix,
                                  T prefix, T inclusive) {
  if constexpr (V == 1) {
    run[0] = has_carry ? T(op(carry, inclusive)) : inclusive;
  } else {
    if (has_carry) {
      prefix = has_prefix ? T(op(carry, prefix)) : carry;
      has_prefix = true;
    }
    if (has_prefix) {
#pragma unroll
      for (int k = 0; k < V; ++k)
        run[k] = T(op(prefix, run[k]));
    }
  }
}

} // namespace detail

/// Replaces the tile v[0 .. L::ELEMS) (layout L, a tilec::Blocked1D) with its inclusive scan
/// under `op` in tile-index order (REVERSE: from the last index down), in every copy of a
/// replicated tile.
///
/// T: at most 8 bytes. Op: `T op(T, T)`, associative (it need not be commutative: operands
/// keep their tile order); no identity element is needed.
template <class L, class T, class Op, bool REVERSE = false>
__device__ inline void scan_tile(T *v, Op op, int tid, unsigned char *smem) {
  using Info = Blocked1DInfo<L>;
  static_assert(Info::IS_BLOCKED1D, "scan_tile takes a tilec::Blocked1D layout");
  static_assert(sizeof(T) <= 8, "scans take elements of at most 8 bytes");
  static_assert(Info::THREADS % WARP_SIZE == 0, "a block is whole warps");
  constexpr int GROUP = Info::GROUP;
  constexpr int WARPS = GROUP > WARP_SIZE ? GROUP / WARP_SIZE : 1;
  static_assert(2 * WARPS * sizeof(T) <= REDUCE_SMEM_BYTES, "two sets of warp totals fit");
  // Runs alternate between two sets of slots, so one barrier per run suffices: a thread
  // writes a set again only after every thread passed the barrier of the run in between.
  T *slots = reinterpret_cast<T *>(smem);
  constexpr int V = L::VEC;
  T carry = v[0]; // the combination of all earlier runs, once has_carry
  bool has_carry = false;
#pragma unroll
  for (int rr = 0; rr < L::RUNS; ++rr) {
    T *run = v + (REVERSE ? L::RUNS - 1 - rr : rr) * V;
    detail::scan_in_thread<V, REVERSE>(run, op);
    bool has_prefix;
    T prefix, total, inclusive;
    detail::group_scan<GROUP, REVERSE, /*COPIES=*/true, /*PREFIX=*/(V > 1)>(
        run[REVERSE ? 0 : V - 1], op, tid, slots + (rr & 1) * WARPS, has_prefix, prefix, total,
        inclusive);
    detail::finish_run<V>(run, op, has_carry, carry, has_prefix, prefix, inclusive);
    carry = has_carry ? T(op(carry, total)) : total;
    has_carry = true;
  }
  if constexpr (GROUP > WARP_SIZE)
    __syncthreads(); // smem is free for the caller's next use
}

} // namespace tilec
