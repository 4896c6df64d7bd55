// tma.cuh: tiles copied from global into shared memory by the copy engine (the Tensor Memory
// Accelerator, sm_90 and newer), completing on mbarriers.
//
// The launcher encodes a tensor map for each box a kernel copies (tilec::encode_tma_map) and
// passes it as a __grid_constant__ parameter, with a mask of the maps it could encode. In a
// pipelined loop one thread starts a stage's copies and arrives on the stage's mbarrier; every
// thread waits on that mbarrier's phase before reading the stage. Out-of-bounds elements of a
// box arrive as zeros, as a masked load's `other = 0` would.
//
// A stage is written in SmemTile's layout: each 16/32/64/128-byte panel is one box (or several
// of at most 256 rows), with TMA's swizzle of the same width, which is SmemTile's permutation.
// The host's box shape (runtime/src/tma_map.cpp) follows the same rule.
//
// Stores go the other way (tma_store_tile): the program's threads write a register tile into
// a staging buffer in the same layout, one thread issues the boxes' copies to global memory,
// and the program goes on while the copy engine drains them; the next store into the buffer
// (and the block's end, tma_store_drain) first waits until the engine has read it.
#pragma once

#include <tilec/device/common/smem_tile.cuh>
#include <tilec/device/sm80/mma.cuh> // smem_address

namespace tilec {

/// A CUtensorMap as a kernel receives it: 128 opaque bytes, 64-byte aligned.
struct alignas(64) TmaMap {
  unsigned long long opaque[16];
};

// Device code for GPUs with the copy engine; elsewhere the functions below compile to nothing
// (the kernel never calls them there: kTmaAvailable is false).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TILEC_TMA_DEVICE 1
inline constexpr bool kTmaAvailable = true;
#else
inline constexpr bool kTmaAvailable = false;
#endif

/// Rows per box: TMA boxes have at most 256 rows.
template <class Tile> inline constexpr int kTmaBoxRows = Tile::ROWS < 256 ? Tile::ROWS : 256;

/// Whether stages of `Tile`, the first at `offset` bytes into the (1024-byte aligned) dynamic
/// shared memory, can be written by TMA: panels as wide as a swizzle mode, and whole swizzle
/// patterns (8 rows of a panel) at the 1024-byte alignment the widest mode requires.
template <class Tile> __host__ __device__ constexpr bool tma_tile_ok(long long offset) {
  constexpr int pb = Tile::PANEL_BYTES;
  return (pb == 16 || pb == 32 || pb == 64 || pb == 128) && Tile::ROWS % 8 == 0 &&
         Tile::BYTES % 1024 == 0 && offset % 1024 == 0;
}

/// Makes `bar` an mbarrier that completes a phase when one thread has arrived and the bytes
/// it expects have landed. Call from one thread, then publish with mbarrier_init_done.
__device__ inline void mbarrier_init(unsigned long long *bar) {
#ifdef TILEC_TMA_DEVICE
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(smem_address(bar)) : "memory");
#endif
}

/// Makes `bar` an mbarrier that completes a phase when `count` threads have arrived (the
/// consumer warps freeing a stage). Call from one thread, then publish with mbarrier_init_done.
__device__ inline void mbarrier_init(unsigned long long *bar, unsigned count) {
#ifdef TILEC_TMA_DEVICE
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_address(bar)), "r"(count)
               : "memory");
#endif
}

/// Threads a warp-specialized kernel runs after the program's `threads`: one warpgroup, the
/// producer, as long as the block stays within 1024 threads (else none, and the kernel takes
/// the path without it).
__host__ __device__ constexpr int producer_threads(int threads) {
  return threads + 128 <= 1024 ? 128 : 0;
}

/// Blocks per SM a warp-specialized kernel asks registers for (__launch_bounds__): two when the
/// consumers are one warpgroup (two programs share an SM, as without the producer), else one.
__host__ __device__ constexpr int ws_min_blocks(int threads) { return threads <= 128 ? 2 : 1; }

/// Registers per thread the producer warpgroup keeps (setmaxnreg): its one thread issuing
/// copies needs few.
inline constexpr int kProducerRegisters = 40;

/// Registers per consumer thread once the producer has given up its own: the block's share
/// of the register file (64K over ws_min_blocks) less the producer's, in multiples of 8.
__host__ __device__ constexpr int consumer_registers(int threads) {
  int r = ((65536 / ws_min_blocks(threads) - kProducerRegisters * 128) / threads) / 8 * 8;
  return r > 256 ? 256 : r;
}

/// The producer warpgroup gives registers to the consumers. Both this and consumer_take_registers move
/// registers only between whole warpgroups (THREADS a multiple of 128) on sm_90a.
template <int THREADS> __device__ inline void producer_give_registers() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if constexpr (THREADS % 128 == 0)
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kProducerRegisters));
#endif
}

/// The consumers take what the producer gave (see producer_give_registers).
template <int THREADS> __device__ inline void consumer_take_registers() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if constexpr (THREADS % 128 == 0)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(consumer_registers(THREADS)));
#endif
}

/// Orders this thread's mbarrier_inits before the copy engine's use of the barriers; a
/// __syncthreads after it publishes them to the other threads.
__device__ inline void mbarrier_init_done() {
#ifdef TILEC_TMA_DEVICE
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/// Ends `bar`'s life as an mbarrier (before its memory is initialized again).
__device__ inline void mbarrier_inval(unsigned long long *bar) {
#ifdef TILEC_TMA_DEVICE
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];\n" ::"r"(smem_address(bar)) : "memory");
#endif
}

/// The current phase of `bar` also waits for `bytes` more bytes of copies.
__device__ inline void mbarrier_expect_bytes(unsigned long long *bar, unsigned bytes) {
#ifdef TILEC_TMA_DEVICE
  asm volatile("mbarrier.expect_tx.shared::cta.b64 [%0], %1;\n" ::"r"(smem_address(bar)),
               "r"(bytes)
               : "memory");
#endif
}

/// This thread's arrival on `bar` (the one the phase waits for besides the bytes).
__device__ inline void mbarrier_arrive(unsigned long long *bar) {
#ifdef TILEC_TMA_DEVICE
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_address(bar)) : "memory");
#endif
}

/// Waits until the phase of `bar` with parity `phase` has completed.
__device__ inline void mbarrier_wait(unsigned long long *bar, int phase) {
#ifdef TILEC_TMA_DEVICE
  asm volatile("{\n"
               " .reg .pred done;\n"
               "TILEC_MBARRIER_WAIT:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               " @!done bra TILEC_MBARRIER_WAIT;\n"
               "}\n" ::"r"(smem_address(bar)),
               "r"(phase)
               : "memory");
#endif
}

/// One box of `map` at (row, col) into `dst`, completing on `bar`.
__device__ inline void tma_load_box(void *dst, const TmaMap *map, int row, int col,
                                    unsigned long long *bar) {
#ifdef TILEC_TMA_DEVICE
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%3, %4}], [%2];\n" ::"r"(smem_address(dst)),
               "l"(reinterpret_cast<unsigned long long>(map)), "r"(smem_address(bar)), "r"(col),
               "r"(row)
               : "memory");
#endif
}

/// One box of matrix `matrix` of the stacked (3-D) `map` at (row, col) into `dst`, completing
/// on `bar`.
__device__ inline void tma_load_stacked_box(void *dst, const TmaMap *map, int row, int col,
                                            int matrix, unsigned long long *bar) {
#ifdef TILEC_TMA_DEVICE
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%3, %4, %5}], [%2];\n" ::"r"(smem_address(dst)),
               "l"(reinterpret_cast<unsigned long long>(map)), "r"(smem_address(bar)), "r"(col),
               "r"(row), "r"(matrix)
               : "memory");
#endif
}

/// Expects Tile::BYTES on `bar` and calls `box(dst_panel, row, col)` for each box of the
/// [Tile::ROWS, Tile::COLS] tile whose first element is (row0, col0): one per panel and 256
/// rows, in Tile's layout.
template <class Tile, class T, class Box>
__device__ inline void for_each_tma_box(T *dst, int row0, int col0, unsigned long long *bar,
                                        Box box) {
  constexpr int BOX_ROWS = kTmaBoxRows<Tile>;
  mbarrier_expect_bytes(bar, unsigned(Tile::BYTES));
#pragma unroll
  for (int p = 0; p < Tile::COLS / Tile::PANEL_COLS; ++p)
#pragma unroll
    for (int r = 0; r < Tile::ROWS; r += BOX_ROWS)
      box(dst + p * (Tile::ROWS * Tile::PANEL_COLS) + r * Tile::PANEL_COLS, row0 + r,
          col0 + p * Tile::PANEL_COLS);
}

/// Copies the [Tile::ROWS, Tile::COLS] box of `map` whose first element is (row0, col0) into
/// `dst` in Tile's layout, one box per panel and 256 rows; `bar`'s phase expects its bytes.
/// Called by one thread, after a barrier that every earlier reader of `dst` passed (no proxy
/// fence: it costs a MEMBAR.ALL.CTA per copy, and the barrier orders the reads).
template <class Tile, class T>
__device__ inline void tma_load_tile(T *dst, const TmaMap *map, int row0, int col0,
                                     unsigned long long *bar) {
  for_each_tma_box<Tile>(dst, row0, col0, bar,
                         [&](T *d, int row, int col) { tma_load_box(d, map, row, col, bar); });
}

/// tma_load_tile for a stacked map: the box of matrix `matrix` (not negative).
template <class Tile, class T>
__device__ inline void tma_load_stacked_tile(T *dst, const TmaMap *map, int row0, int col0,
                                             int matrix, unsigned long long *bar) {
  for_each_tma_box<Tile>(dst, row0, col0, bar, [&](T *d, int row, int col) {
    tma_load_stacked_box(d, map, row, col, matrix, bar);
  });
}

/// The named barrier tma_store_tile synchronizes the program's threads on (0 is
/// __syncthreads', 1 and 2 the warpgroups' turns of turns.cuh).
inline constexpr int kTmaStoreBarrier = 3;

/// Waits until the copy engine has read the shared memory of every store this thread issued.
__device__ inline void tma_store_wait_read() {
#ifdef TILEC_TMA_DEVICE
  asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
#endif
}

/// One box of `src` (shared memory) into `map` at (row, col); elements outside the tensor are
/// not written.
__device__ inline void tma_store_box(const TmaMap *map, int row, int col, const void *src) {
#ifdef TILEC_TMA_DEVICE
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
                   reinterpret_cast<unsigned long long>(map)),
               "r"(smem_address(src)), "r"(col), "r"(row)
               : "memory");
#endif
}

/// Stores register tile `vals` (layout L) at (row0, col0) of `map` through the staging buffer
/// `buf` (Tile's layout, 1024-byte aligned): every one of the program's THREADS threads calls
/// it. The copy completes in the background.
template <class L, class Tile, int THREADS, class T>
__device__ inline void tma_store_tile(const T *vals, T *buf, const TmaMap *map, int row0,
                                      int col0, int tid) {
#ifdef TILEC_TMA_DEVICE
  static_assert(THREADS % 32 == 0, "a named barrier counts whole warps");
  if (tid == 0)
    tma_store_wait_read(); // the previous store has read the buffer
  asm volatile("bar.sync %0, %1;\n" ::"n"(kTmaStoreBarrier), "n"(THREADS) : "memory");
  store_to_smem<L, Tile>(vals, buf, tid); // on sm_90a with the proxy fence below
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
  // The buffer's writes, made by the threads, are read by the copy engine's proxy.
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
  asm volatile("bar.sync %0, %1;\n" ::"n"(kTmaStoreBarrier), "n"(THREADS) : "memory");
  if (tid == 0) {
    constexpr int BOX_ROWS = kTmaBoxRows<Tile>;
#pragma unroll
    for (int p = 0; p < Tile::COLS / Tile::PANEL_COLS; ++p)
#pragma unroll
      for (int r = 0; r < Tile::ROWS; r += BOX_ROWS)
        tma_store_box(map, row0 + r, col0 + p * Tile::PANEL_COLS,
                      buf + p * (Tile::ROWS * Tile::PANEL_COLS) + r * Tile::PANEL_COLS);
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
  }
#endif
}

/// Before the block leaves: the copy engine has read the buffers of the program's stores
/// (their writes to global memory then complete on their own).
__device__ inline void tma_store_drain(int tid) {
  if (tid == 0)
    tma_store_wait_read();
}

} // namespace tilec
