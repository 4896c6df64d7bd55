// scan_axis.cuh: inclusive scans along one dimension of a rank-2 tile (Blocked2D), in place.
//
// Along a row (DIM 1): the threads that share a row are GROUP = TW1 * W1 consecutive threads
// (a row spans several warps only when all 32 lanes of a warp lie along it), and the thread at
// position g of its group holds the columns r1 * COLS_PER_PASS + g * VEC + k: the structure of
// a Blocked1D tile. So each row a thread holds scans as scan.cuh scans a tile, run by run;
// when a row spans several warps, all its runs share one barrier: every group writes its
// warps' run totals to slots of its own, then combines them.
//
// Down a column (DIM 0): a thread holds one element of each of its columns per row slot r0;
// within a pass the rows are lane rows (lane / TW1) inside warp rows (warp / W1). Each row
// slot scans its lane rows with shuffles TW1 lanes apart, combines the totals of the warp rows
// before it (through shared memory), then the carry of the row slots before it.
//
// Replicated rows (M < ROWS_PER_PASS) scan in aligned groups of M rows, each group a copy.
// REVERSE mirrors every level of that order; the accumulated value stays op's first operand,
// as in scan.cuh, so op need not be commutative.
//
// Call contract as reduce_axis: all threads of the block call it, `smem` holds
// scan_axis_bytes<P, DIM, T>() bytes and is free again when it returns.
#pragma once

#include <tilec/device/common/layout2d.cuh>
#include <tilec/device/common/scan.cuh>

namespace tilec {
namespace detail {

/// Warp rows of a Blocked2D P that hold distinct rows of one copy of the tile.
template <class P> __host__ __device__ constexpr int column_warp_group() {
  return P::ROWS >= P::ROWS_PER_PASS ? P::W0 : P::ROWS > P::TW0 ? P::ROWS / P::TW0 : 1;
}

/// Rows within one warp (GROUP <= 32): each run scans its lanes with shuffles, and its total
/// carries into the next run of the row.
template <class P, class T, class Op, bool REVERSE>
__device__ inline void scan_rows_in_warp(T *v, Op op, int tid) {
  constexpr int V = P::VEC, GROUP = P::TW1 * P::W1;
#pragma unroll
  for (int j = 0; j < P::R0; ++j) {
    T *row = v + j * P::R1 * V;
    T carry = row[0]; // the combination of the earlier runs of the row, once has_carry
    bool has_carry = false;
#pragma unroll
    for (int rr = 0; rr < P::R1; ++rr) {
      T *run = row + (REVERSE ? P::R1 - 1 - rr : rr) * V;
      scan_in_thread<V, REVERSE>(run, op);
      bool has_prefix;
      T prefix, total, inclusive;
      group_scan<GROUP, REVERSE, /*COPIES=*/false, /*PREFIX=*/(V > 1)>(
          run[REVERSE ? 0 : V - 1], op, tid, static_cast<T *>(nullptr), has_prefix, prefix, total,
          inclusive);
      finish_run<V>(run, op, has_carry, carry, has_prefix, prefix, inclusive);
      carry = has_carry ? T(op(carry, total)) : total;
      has_carry = true;
    }
  }
}

/// Rows across several warps (GROUP > 32), a row at a time: every run scans its lanes with
/// shuffles and the warps write their run totals to shared memory; after one barrier each
/// thread combines, run by run, the totals of the warps before it and of the runs before.
/// So a row costs one barrier, not one per run. Rows alternate between two sets of slots
/// (R1 x the group's warps each), as runs do in scan_tile.
template <class P, class T, class Op, bool REVERSE>
__device__ inline void scan_rows_across_warps(T *v, Op op, int tid, unsigned char *smem) {
  constexpr int V = P::VEC, GROUP = P::TW1 * P::W1, GW = GROUP / WARP_SIZE;
  const int lane = tid & (WARP_SIZE - 1);
  const int pos = tid & (GROUP - 1);
  const int logical = REVERSE ? GROUP - 1 - pos : pos; // position in scan order
  const int lw = logical / WARP_SIZE, lq = logical & (WARP_SIZE - 1);
  const int step = REVERSE ? -1 : 1;
  T *const sets = reinterpret_cast<T *>(smem) + (tid / GROUP) * P::R1 * GW;
#pragma unroll
  for (int j = 0; j < P::R0; ++j) {
    T *row = v + j * P::R1 * V;
    T *slots = sets + (j & 1) * P::WARPS * P::R1;
    T lane_prefix[P::R1]; // V > 1: the combination of the earlier lanes of the warp
#pragma unroll
    for (int rr = 0; rr < P::R1; ++rr) {
      T *run = row + (REVERSE ? P::R1 - 1 - rr : rr) * V;
      scan_in_thread<V, REVERSE>(run, op);
      T &tail = run[REVERSE ? 0 : V - 1];
      T x = tail;
#pragma unroll
      for (int off = 1; off < WARP_SIZE; off *= 2) {
        T y = shfl_idx(x, (lane - step * off) & (WARP_SIZE - 1));
        if (lq >= off)
          x = T(op(y, x));
      }
      if constexpr (V > 1)
        lane_prefix[rr] = shfl_idx(x, (lane - step) & (WARP_SIZE - 1));
      else
        tail = x; // a run of one element holds its warp-inclusive value
      if (lq == WARP_SIZE - 1)
        slots[rr * GW + lw] = x;
    }
    __syncthreads();
    T carry = row[0]; // the combination of the earlier runs of the row, once has_carry
    bool has_carry = false;
#pragma unroll
    for (int rr = 0; rr < P::R1; ++rr) {
      T *run = row + (REVERSE ? P::R1 - 1 - rr : rr) * V;
      // The totals of the warps before this one, and of the whole run.
      T total = slots[rr * GW], before = total;
#pragma unroll
      for (int g = 1; g < GW; ++g) {
        if (g == lw)
          before = total;
        total = T(op(total, slots[rr * GW + g]));
      }
      bool has_prefix = has_carry || lw > 0;
      T prefix = carry;
      if (lw > 0)
        prefix = has_carry ? T(op(carry, before)) : before;
      if constexpr (V > 1) {
        if (lq > 0) {
          prefix = has_prefix ? T(op(prefix, lane_prefix[rr])) : lane_prefix[rr];
          has_prefix = true;
        }
      }
      if (has_prefix) {
#pragma unroll
        for (int k = 0; k < V; ++k)
          run[k] = T(op(prefix, run[k]));
      }
      carry = has_carry ? T(op(carry, total)) : total;
      has_carry = true;
    }
  }
  __syncthreads(); // smem is free for the caller's next use
}

template <class P, class T, class Op, bool REVERSE>
__device__ inline void scan_rows(T *v, Op op, int tid, unsigned char *smem) {
  if constexpr (P::TW1 * P::W1 > WARP_SIZE)
    scan_rows_across_warps<P, T, Op, REVERSE>(v, op, tid, smem);
  else
    scan_rows_in_warp<P, T, Op, REVERSE>(v, op, tid);
}

template <class P, class T, class Op, bool REVERSE>
__device__ inline void scan_columns(T *v, Op op, int tid, unsigned char *smem) {
  constexpr int PER_ROW = P::VEC * P::R1; // columns a thread holds
  constexpr int LANE_ROWS = int(cmin(P::TW0, P::ROWS));
  constexpr int WGROUP = column_warp_group<P>();
  const int lane = tid % WARP_SIZE, wr = tid / WARP_SIZE / P::W1;
  const int lp = (lane / P::TW1) % LANE_ROWS;         // lane row in its group
  const int lrow = REVERSE ? LANE_ROWS - 1 - lp : lp; // ... in scan order
  const int back = REVERSE ? P::TW1 : -P::TW1;        // lanes to the previous row
  const int last = lane + ((REVERSE ? 0 : LANE_ROWS - 1) - lp) * P::TW1; // the last row's
  const int wq = wr % WGROUP, wlog = REVERSE ? WGROUP - 1 - wq : wq;
  T carry[PER_ROW]; // the combination of the earlier row slots, once has_carry
  bool has_carry = false;
#pragma unroll
  for (int jj = 0; jj < P::R0; ++jj) {
    T *x = v + (REVERSE ? P::R0 - 1 - jj : jj) * PER_ROW;
    // Lane rows (Hillis-Steele).
#pragma unroll
    for (int off = 1; off < LANE_ROWS; off *= 2) {
#pragma unroll
      for (int j = 0; j < PER_ROW; ++j) {
        T y = shfl_idx(x[j], (lane + back * off) & (WARP_SIZE - 1));
        if (lrow >= off)
          x[j] = T(op(y, x[j]));
      }
    }
    T total[PER_ROW];
#pragma unroll
    for (int j = 0; j < PER_ROW; ++j)
      total[j] = shfl_idx(x[j], last);
    if constexpr (WGROUP > 1) {
      // Warp rows: each writes its totals, then combines those of the warp rows before it.
      T *buf = reinterpret_cast<T *>(smem) + (jj & 1) * P::W0 * P::COLS;
      if (lrow == LANE_ROWS - 1)
#pragma unroll
        for (int j = 0; j < PER_ROW; ++j)
          buf[wr * P::COLS + P::col(tid, j)] = x[j];
      __syncthreads();
      const int base = wr - wq;
#pragma unroll
      for (int j = 0; j < PER_ROW; ++j) {
        const int c = P::col(tid, j);
        T acc = buf[(base + (REVERSE ? WGROUP - 1 : 0)) * P::COLS + c];
        T before = acc;
#pragma unroll
        for (int g = 1; g < WGROUP; ++g) {
          if (g == wlog)
            before = acc;
          acc = T(op(acc, buf[(base + (REVERSE ? WGROUP - 1 - g : g)) * P::COLS + c]));
        }
        if (wlog > 0)
          x[j] = T(op(before, x[j]));
        total[j] = acc;
      }
    }
#pragma unroll
    for (int j = 0; j < PER_ROW; ++j) {
      if (has_carry)
        x[j] = T(op(carry[j], x[j]));
      carry[j] = has_carry ? T(op(carry[j], total[j])) : total[j];
    }
    has_carry = true;
  }
  if constexpr (WGROUP > 1)
    __syncthreads(); // smem is free for the caller's next use
}

} // namespace detail

/// Shared memory scan_axis<P, DIM> needs for elements of type T (at least 16 bytes).
template <class P, int DIM, class T> __host__ __device__ constexpr int scan_axis_bytes() {
  long long bytes = 0;
  if (DIM == 1 && P::TW1 * P::W1 > 32)
    bytes = 2LL * P::WARPS * P::R1 * sizeof(T);
  if (DIM == 0 && detail::column_warp_group<P>() > 1)
    bytes = 2LL * P::W0 * P::COLS * sizeof(T);
  return int(cmax(16, bytes));
}

/// Replaces the tile v[0 .. P::ELEMS) (layout P, a tilec::Blocked2D) with its inclusive scan
/// under `op` along dimension DIM (REVERSE: from the last index down), every row (DIM 1) or
/// column (DIM 0) on its own.
///
/// T: at most 8 bytes. Op: `T op(T, T)`, associative (it need not be commutative: operands
/// keep their tile order); no identity element is needed.
template <class P, int DIM, class T, class Op, bool REVERSE = false>
__device__ inline void scan_axis(T *v, Op op, int tid, unsigned char *smem) {
  static_assert(DIM == 0 || DIM == 1, "rank-2 tiles have dimensions 0 and 1");
  static_assert(sizeof(T) <= 8, "scans take elements of at most 8 bytes");
  if constexpr (DIM == 1)
    detail::scan_rows<P, T, Op, REVERSE>(v, op, tid, smem);
  else
    detail::scan_columns<P, T, Op, REVERSE>(v, op, tid, smem);
}

} // namespace tilec
