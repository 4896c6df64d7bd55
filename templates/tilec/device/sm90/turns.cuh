// turns.cuh: the two warpgroups of a program taking turns at the tensor cores
// (pingpong-warpgroups). In a loop where a tl::dot's result goes through other arithmetic (a
// softmax) into the next tl::dot, each warpgroup waits for its turn before issuing its dots and
// passes the turn on once they are issued, so that one warpgroup's dots run while the other
// computes: the tensor cores are not left idle while both do arithmetic at once.
//
// A turn is a named barrier per warpgroup (1 for the first, 2 for the second; 0 is
// __syncthreads), completing when the 128 threads waiting on it and the 128 of the other
// warpgroup arriving on it are there. Before the loop the second warpgroup arrives on the
// first's, so the first goes first; after it the first takes the second's last arrival.
// Every function compiles to nothing when ON is false (one warpgroup, or dots not on wgmma).
#pragma once

namespace tilec {

inline constexpr int WARPGROUP_THREADS = 128;

/// Whether the two warpgroups of THREADS threads each hold their own rows of a tl::dot result
/// in layout L (the mma layout's warps all along the rows), so that neither reads the other's.
template <class L, int THREADS> __host__ __device__ constexpr bool rows_per_warpgroup() {
  return THREADS == 2 * WARPGROUP_THREADS && L::WN == 1 && L::WM == THREADS / 32;
}

// The barrier's number is an immediate, so that ptxas reserves only the barriers used.
template <int ID> __device__ inline void turn_barrier_wait() {
  asm volatile("bar.sync %0, %1;\n" ::"n"(ID), "n"(2 * WARPGROUP_THREADS) : "memory");
}

template <int ID> __device__ inline void turn_barrier_arrive() {
  asm volatile("bar.arrive %0, %1;\n" ::"n"(ID), "n"(2 * WARPGROUP_THREADS) : "memory");
}

/// Before the loop: the second warpgroup lets the first take the first turn.
template <bool ON> __device__ inline void turns_start(int tid) {
  if constexpr (ON)
    if (tid >= WARPGROUP_THREADS)
      turn_barrier_arrive<1>();
}

/// This warpgroup waits until the other passed it the turn.
template <bool ON> __device__ inline void turn_begin(int tid) {
  if constexpr (ON) {
    if (tid < WARPGROUP_THREADS)
      turn_barrier_wait<1>();
    else
      turn_barrier_wait<2>();
  }
}

/// This warpgroup's dots are issued: the turn passes to the other.
template <bool ON> __device__ inline void turn_end(int tid) {
  if constexpr (ON) {
    if (tid < WARPGROUP_THREADS)
      turn_barrier_arrive<2>();
    else
      turn_barrier_arrive<1>();
  }
}

/// After the loop: the first warpgroup takes the turn the second passed it last, so that both
/// barriers are complete when the block goes on.
template <bool ON> __device__ inline void turns_finish(int tid) {
  if constexpr (ON)
    if (tid < WARPGROUP_THREADS)
      turn_barrier_wait<1>();
}

} // namespace tilec
