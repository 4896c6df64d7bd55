// Cumulative sum along a dimension, ported from FlagGems (github.com/FlagOpen/FlagGems,
// src/flag_gems/ops/cumsum.py at 532ff438: scan_part_sum_kernel, add_base_sum_kernel,
// scan_part_sum_abc_kernel, add_base_sum_abc_kernel, reduce_then_scan_block_sum_kernel_row,
// reduce_then_scan_root_scan_kernel_row, reduce_then_scan_block_scan_kernel_row; Apache
// License 2.0).
//
// The host views the input as [A, B, C] with the scan along B. C == 1 (a row scan) runs
// reduce-then-scan: rows up to 16384 long are one tile scanned by the root kernel alone;
// longer rows are cut into num_ctas chunks of tiles_per_cta tiles, whose sums
// (block_sum_kernel) are scanned by the root kernel and then added to each chunk's own scan
// (block_scan_kernel). C > 1 runs scan-then-fan: each BLOCK_SIZE block of a column is
// scanned and its sum written to partial_sum (scan_part_sum_abc_kernel), the partial sums are
// scanned the same way (recursively, by the host), and each block adds the previous block's
// inclusive sum (add_base_sum_abc_kernel). scan_part_sum_kernel and add_base_sum_kernel are
// the same over a flat array (the host's scan_then_fan_col).
//
// Differences from the original: the element types of the input, the output and the partial
// sums are template parameters (TI, TO, TP: the original's pointers carry them; FlagGems'
// host makes TO int64 for integer inputs and TP float for half and bfloat16). The original
// chooses the scan's type with constexpr tests of the loaded tile's dtype
// (inp_vals.dtype.is_int64() ..., and the constexpr function get_scan_accum_type); tilec
// cannot follow a type computed from a template parameter (std::conditional_t), so the scan
// type is a template parameter too (TS: int64, uint64 and double stay, other integers scan
// in int32, other types in float32; ACC: half and bfloat16 accumulate in float, integers in
// int64, other types in themselves), chosen where the kernel is launched.
// partial_sum + pid - 1 is written partial_sum + (pid - 1): the translator refuses
// pointer - integer. Skipped: normed_cumsum's kernels (block_cumsum_kernel,
// block_update_kernel, normed_cumsum_kernel), a normalized cumsum for multinomial sampling
// rather than cumsum along a dimension.
// Under tilec's promotion rule (a tile combined with a scalar keeps the tile's type),
// add_base_sum(_abc)_kernel's `out_vals + last_part_sum_via_sum` adds in the output's type
// (the float partial sum rounded to half or bfloat16 first), where Triton adds in float and
// rounds once; and offsets built from int64 program ids and int32 aranges are int32 tiles.
#include <tilec/tl.h>

template <class TI, class TO, class TP, class TS, int BLOCK_SIZE>
TILEC_KERNEL void scan_part_sum_kernel(const TI *inp, TO *out, TP *partial_sum, int n_elements,
                                       [[maybe_unused]] int part_num) {
  int64_t pid = tl::program_id(0);
  auto offset = pid * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
  auto mask = offset < n_elements;

  auto inp_ptrs = inp + offset;
  auto inp_vals = tl::cast<TS>(tl::load(inp_ptrs, mask));
  auto result = tl::cumsum<0>(inp_vals);

  auto part_sum_via_sum = tl::sum(inp_vals);

  auto out_ptrs = out + offset;
  tl::store(out_ptrs, result, mask);

  auto partial_sum_ptrs = partial_sum + pid;
  tl::store(partial_sum_ptrs, part_sum_via_sum);
}

template <class TO, class TP, int BLOCK_SIZE>
TILEC_KERNEL void add_base_sum_kernel(TO *out, const TP *partial_sum, int n_elements,
                                      [[maybe_unused]] int part_num) {
  int64_t pid = tl::program_id(0);
  auto offset = pid * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
  auto mask = offset < n_elements;

  auto out_ptrs = out + offset;
  auto out_vals = tl::load(out_ptrs, mask);

  if (pid > 0) {
    auto partial_sum_ptrs = partial_sum + (pid - 1);
    auto last_part_sum_via_sum = tl::load(partial_sum_ptrs);

    auto final_vals = out_vals + last_part_sum_via_sum;
    tl::store(out_ptrs, tl::cast<TO>(final_vals), mask);
  }
}

template <class TI, class TO, class TP, class TS, int BLOCK_SIZE>
TILEC_KERNEL void scan_part_sum_abc_kernel(const TI *inp, TO *out, TP *partial_sum, int B, int C,
                                           int part_num) {
  int64_t pid_a = tl::program_id(0);
  int64_t pid_b = tl::program_id(1);
  int64_t pid_c = tl::program_id(2);

  auto a_idx = pid_a;
  auto b_idx = pid_b * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
  auto c_idx = pid_c;

  auto offset = a_idx * B * C + b_idx * C + c_idx;
  auto base_part_offset = a_idx * part_num * C + c_idx;
  auto part_offset = base_part_offset + pid_b * C;

  auto mask = b_idx < B;
  auto inp_ptrs = inp + offset;
  auto inp_vals = tl::cast<TS>(tl::load(inp_ptrs, mask));
  auto result = tl::cumsum<0>(inp_vals);

  auto part_sum_via_sum = tl::sum(inp_vals);

  auto out_ptrs = out + offset;
  tl::store(out_ptrs, result, mask);

  auto partial_sum_ptrs = partial_sum + part_offset;
  tl::store(partial_sum_ptrs, part_sum_via_sum);
}

template <class TO, class TP, int BLOCK_SIZE>
TILEC_KERNEL void add_base_sum_abc_kernel(TO *out, const TP *partial_sum, int B, int C,
                                          int part_num) {
  int64_t pid_a = tl::program_id(0);
  int64_t pid_b = tl::program_id(1);
  int64_t pid_c = tl::program_id(2);

  auto a_idx = pid_a;
  auto b_idx = pid_b * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
  auto c_idx = pid_c;

  auto base_offset = a_idx * B * C + c_idx;
  auto offset = base_offset + b_idx * C;
  auto base_part_offset = a_idx * part_num * C + c_idx;
  auto last_part_offset = base_part_offset + (pid_b - 1) * C;

  auto mask = b_idx < B;
  auto out_ptrs = out + offset;
  auto out_vals = tl::load(out_ptrs, mask);

  if (pid_b > 0) {
    auto partial_sum_ptrs = partial_sum + last_part_offset;
    auto last_part_sum_via_sum = tl::load(partial_sum_ptrs);

    auto final_vals = out_vals + last_part_sum_via_sum;
    tl::store(out_ptrs, tl::cast<TO>(final_vals), mask);
  }
}

// Sum of one chunk (tiles_per_cta tiles) of a row.
template <class TI, class TP, class ACC, int TILE_SIZE>
TILEC_KERNEL void reduce_then_scan_block_sum_kernel_row(const TI *in_ptr, TP *block_sum_ptr, int N,
                                                        int tiles_per_cta) {
  int64_t pid_n = tl::program_id(1);
  int64_t pid_m = tl::program_id(0);
  int num_programs_n = tl::num_programs(1);
  int64_t block_offset = pid_n * (tiles_per_cta * TILE_SIZE);
  int64_t block_end = tl::minimum(block_offset + tiles_per_cta * TILE_SIZE, int64_t(N));

  using acc_dtype = ACC;
  auto acc = tl::zeros<acc_dtype, TILE_SIZE>();
  for (int64_t start = block_offset; start < block_end; start += TILE_SIZE) {
    auto offsets = start + tl::arange<0, TILE_SIZE>();
    auto x = tl::cast<acc_dtype>(tl::load(in_ptr + pid_m * N + offsets, offsets < N));
    acc += x;
  }
  auto block_sum = tl::sum<0>(acc);
  tl::store(block_sum_ptr + pid_m * num_programs_n + pid_n, block_sum, tl::cache::cg);
}

// A whole row in one tile: its inclusive scan.
template <class TI, class TO, class ACC, int TILE_SIZE>
TILEC_KERNEL void reduce_then_scan_root_scan_kernel_row(const TI *in_ptr, TO *out_ptr, int N) {
  int64_t pid = tl::program_id(0);
  auto offsets = tl::arange<0, TILE_SIZE>();
  auto mask = offsets < N;
  using acc_dtype = ACC;
  auto x = tl::cast<acc_dtype>(tl::load(in_ptr + pid * N + offsets, mask, 0));
  auto out = tl::cumsum<0>(x);
  tl::store(out_ptr + pid * N + offsets, out, mask);
}

template <class TI, class TP, class TO, class ACC, int TILE_SIZE>
TILEC_KERNEL void
reduce_then_scan_block_scan_kernel_row(const TI *in_ptr, const TP *previous_sum_ptr, TO *out_ptr,
                                       int N, int num_tiles_n, int tiles_per_cta) {
  int64_t pid_m = tl::program_id(0);
  int64_t pid_n = tl::program_id(1);
  int64_t block_offset = pid_n * (tiles_per_cta * TILE_SIZE);
  int64_t block_end = tl::minimum(block_offset + tiles_per_cta * TILE_SIZE, int64_t(N));
  using acc_dtype = ACC;

  acc_dtype prefix = tl::cast<acc_dtype>(
      tl::load(previous_sum_ptr + pid_m * num_tiles_n + (pid_n - 1), pid_n > 0, 0));
  for (int64_t start = block_offset; start < block_end; start += TILE_SIZE) {
    auto offsets = start + tl::arange<0, TILE_SIZE>();
    auto mask = offsets < N;
    auto x = tl::cast<acc_dtype>(tl::load(in_ptr + pid_m * N + offsets, mask));
    auto tile_scan = prefix + tl::cumsum<0>(x);
    prefix += tl::sum<0>(x);
    tl::store(out_ptr + pid_m * N + offsets, tile_scan, mask, tl::cache::cg);
  }
}
