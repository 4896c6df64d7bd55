// Variance and mean, ported from FlagGems (github.com/FlagOpen/FlagGems,
// src/flag_gems/ops/var_mean.py at 532ff438: var_mean_welford_kernel, var_mean_kernel_1,
// var_mean_kernel_2; Apache License 2.0).
//
// var_mean_welford_kernel: BLOCK_M rows of an [M, N] matrix per program, each lane of a
// [BLOCK_M, BLOCK_N] tile running Welford's update over its column of the row; the lanes'
// (mean, count, M2) triples are then merged along the row. var_mean_kernel_1 and _2 reduce the
// whole tensor: the first writes (acc, average, count) per BLOCK_N block, the second merges
// the blocks.
//
// Differences from the original: it merges the Welford triples with
// tl.reduce((mean, count, M2), axis, combine_fn=welford_func), a reduction of a tuple of
// tiles, which tilec's tl::reduce (one tile) cannot spell. Its combine is
//   count = cx + cy, mean = (mx*cx + my*cy) / max(count, 1),
//   M2 = M2x + mx*cx*mx + M2y + my*cy*my - count*mean*mean,
// whose fold over all lanes is count = sum(c), mean = sum(m*c) / max(count, 1),
// M2 = sum(M2 + c*m*m) - count*mean*mean: that is what is written here, with tl::sum. The pointer
// arguments the original rebinds to tiles (X = X + pid * N) get new names (X_ptrs), which C++
// needs. correction is a float argument, as the host passes it (do_not_specialize).
// Under tilec's promotion rule (a tile combined with a scalar keeps the tile's type) the row
// offsets `program_id (int64) * BLOCK_M + arange` are an int32 tile, where Triton's are int64.
#include <tilec/tl.h>

template <class T, int BLOCK_M, int BLOCK_N>
TILEC_KERNEL void var_mean_welford_kernel(const T *X, T *Var, T *Mean, int M, int N,
                                          float correction) {
  // this program's BLOCK_M rows, as a column
  int64_t pid0 = tl::program_id(0);
  auto pid = pid0 * BLOCK_M + tl::expand_dims<1>(tl::arange<0, BLOCK_M>());
  auto X_ptrs = X + pid * N;
  auto Var_ptrs = Var + pid;
  auto Mean_ptrs = Mean + pid;
  auto row_mask = pid < M;

  auto _mean = tl::zeros<float, BLOCK_M, BLOCK_N>();
  auto _acc = tl::zeros<float, BLOCK_M, BLOCK_N>();
  auto _count = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int off = 0; off < N; off += BLOCK_N) {
    auto cols = off + tl::expand_dims<0>(tl::arange<0, BLOCK_N>());
    auto col_mask = cols < N;
    auto mask = row_mask && col_mask;

    auto x = tl::cast<float>(tl::load(X_ptrs + cols, mask, 0.0f));

    auto count = _count + mask;
    auto cnt = tl::maximum(count, 1);
    auto cur_mean = (_mean * _count + x) / cnt;
    _acc += (x - cur_mean) * (x - _mean) * mask;
    _mean = cur_mean;
    _count = count;
  }

  // tl.reduce((_mean, _count, _acc), axis=1, combine_fn=welford_func), folded with sums
  auto count = tl::sum<1>(_count);
  auto mean = tl::sum<1>(_mean * _count) / tl::maximum(count, 1);
  auto acc = tl::sum<1>(_acc + _count * _mean * _mean) - count * mean * mean;
  auto var = acc / (N - correction);
  auto mean2 = tl::expand_dims<1>(mean);
  auto var2 = tl::expand_dims<1>(var);
  tl::store(Mean_ptrs, mean2, row_mask);
  tl::store(Var_ptrs, var2, row_mask);
}

template <class T, int BLOCK_N>
TILEC_KERNEL void var_mean_kernel_1(const T *X, T *Acc, T *Average, T *Count, int N) {
  // one BLOCK_N block of the flattened tensor per program
  int64_t pid = tl::program_id(0);
  auto offset = pid * BLOCK_N + tl::arange<0, BLOCK_N>();

  auto X_ptrs = X + offset;
  Acc = Acc + pid;
  Average = Average + pid;
  Count = Count + pid;
  auto mask = offset < N;

  auto x = tl::cast<float>(tl::load(X_ptrs, mask, 0.0f));

  float count = tl::sum(tl::cast<float>(mask));
  float average = tl::sum(x) / count;
  float acc = tl::sum(x * x) - count * average * average;

  tl::store(Average, average);
  tl::store(Acc, acc);
  tl::store(Count, count);
}

template <class T, int BLOCK_N>
TILEC_KERNEL void var_mean_kernel_2(const T *Acc, const T *Average, const T *Count, T *Var, T *Mean,
                                    int N, float correction, int BLOCK_NUM) {
  auto offset = tl::arange<0, BLOCK_N>();
  auto mask = offset < BLOCK_NUM;
  auto Acc_ptrs = Acc + offset;
  auto Average_ptrs = Average + offset;
  auto Count_ptrs = Count + offset;
  auto acc = tl::cast<float>(tl::load(Acc_ptrs, mask, 0.0f));
  auto average = tl::cast<float>(tl::load(Average_ptrs, mask, 0.0f));
  auto count = tl::cast<float>(tl::load(Count_ptrs, mask, 0.0f));

  // tl.reduce((average, count, acc), axis=0, combine_fn=welford_func), folded with sums
  float total = tl::sum(count);
  float mean = tl::sum(average * count) / tl::maximum(total, 1.0f);
  float nvar = tl::sum(acc + count * average * average) - total * mean * mean;

  float var = nvar / (N - correction);
  tl::store(Mean, mean);
  tl::store(Var, var);
}
