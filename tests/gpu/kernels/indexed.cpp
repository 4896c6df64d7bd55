// tl::flip, tl::gather, tl::sort / tl::topk and tl::histogram: the kernels the GPU test
// launches and the interpreter test checks against plain loops. Sizes are not multiples of the
// blocks, so masked-off lanes load their `other` values, which then show in the results.
#include <tilec/tl.h>

// A rank-1 block reversed, masked at the end of the data.
template <int B> TILEC_KERNEL void flip_1d(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();
  auto v = tl::load(x + offs, offs < n, -1.0f);
  tl::store(out + offs, tl::flip(v), offs < n);
}

// An [R, C] block of a rows x cols matrix, reversed along its rows (the last axis, Triton's
// default) and along its columns; both outputs have C columns.
template <int R, int C>
TILEC_KERNEL void flip_2d(const int *x, int *rows_flipped, int *cols_flipped, int rows, int cols) {
  auto r = tl::program_id(0) * R + tl::expand_dims<1>(tl::arange<0, R>());
  auto c = tl::expand_dims<0>(tl::arange<0, C>());
  auto v = tl::load(x + r * cols + c, (r < rows) & (c < cols), -1);
  tl::store(rows_flipped + r * C + c, tl::flip(v), r < rows);
  tl::store(cols_flipped + r * C + c, tl::flip<0>(v), r < rows);
}

// Rank 1 permuted by indices from memory: out[i] = block[idx[i]] (the tail's indices load 0).
template <int B, class I>
TILEC_KERNEL void gather_1d(const float *x, const I *idx, float *out, int n) {
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();
  auto v = tl::load(x + offs, offs < n, -1.0f);
  auto k = tl::load(idx + offs, offs < n);
  tl::store(out + offs, tl::gather<0>(v, k), offs < n);
}

// One [R, C] block (masked to rows x cols): K rows picked per column (axis 0, int64 indices
// [K, C]), K columns picked per row (axis -1, uint8 indices [R, K]), and the row maxima (a
// reduction's row slice) read in reverse order through a flipped arange.
template <int R, int C, int K>
TILEC_KERNEL void gather_2d(const float *x, const int64_t *row_idx, const uint8_t *col_idx,
                            float *picked_rows, float *picked_cols, float *maxima_reversed,
                            int rows, int cols) {
  auto r = tl::expand_dims<1>(tl::arange<0, R>());
  auto c = tl::expand_dims<0>(tl::arange<0, C>());
  auto v = tl::load(x + r * cols + c, (r < rows) & (c < cols), -1.0f);
  auto kr = tl::expand_dims<1>(tl::arange<0, K>());
  tl::store(picked_rows + kr * C + c, tl::gather<0>(v, tl::load(row_idx + kr * C + c)));
  auto kc = tl::expand_dims<0>(tl::arange<0, K>());
  tl::store(picked_cols + r * K + kc, tl::gather<-1>(v, tl::load(col_idx + r * K + kc)));
  auto backwards = tl::flip(tl::arange<0, R>());
  tl::store(maxima_reversed + tl::arange<0, R>(), tl::gather<0>(tl::max<1>(v), backwards));
}

// An [A, B, C] tile: flipped along its middle axis (counted from the end) and its first, and
// gathered along the middle axis by an [A, K, C] index.
template <int A, int B, int C, int K>
TILEC_KERNEL void rank3_indexed(const float *x, const int *idx, float *flipped_mid,
                                float *flipped_first, float *gathered) {
  auto i = tl::expand_dims<2>(tl::expand_dims<1>(tl::arange<0, A>()));
  auto j = tl::expand_dims<2>(tl::expand_dims<0>(tl::arange<0, B>()));
  auto k = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, C>()));
  auto offs = i * (B * C) + j * C + k;
  auto v = tl::load(x + offs);
  tl::store(flipped_mid + offs, tl::flip<-2>(v));
  tl::store(flipped_first + offs, tl::flip<0>(v));
  auto jk = tl::expand_dims<2>(tl::expand_dims<0>(tl::arange<0, K>()));
  auto at = i * (K * C) + jk * C + k;
  tl::store(gathered + at, tl::gather<1>(v, tl::load(idx + at)));
}

// Per-program histograms of small integers (some outside [0, BINS)); the tail is masked off
// (its lanes load 0, which the mask keeps out of bin 0). Each program stores its counts and
// adds them to the global bins with relaxed atomics.
template <int B, int BINS>
TILEC_KERNEL void histogram_1d(const int *x, int *per_program, int *total, int n) {
  const int pid = tl::program_id(0);
  auto offs = pid * B + tl::arange<0, B>();
  auto h = tl::histogram<BINS>(tl::load(x + offs, offs < n), offs < n);
  auto bins = tl::arange<0, BINS>();
  tl::store(per_program + pid * BINS + bins, h);
  tl::atomic_add(total + bins, h, tl::sem::relaxed);
}

// Unmasked histograms: the column of each row's maximum in an [R, C] block (argmax gives a
// row slice), and R * C bytes over all 256 values.
template <int R, int C>
TILEC_KERNEL void histogram_2d(const float *x, const uint8_t *bytes, int *where_max,
                               int *byte_counts) {
  auto r = tl::expand_dims<1>(tl::arange<0, R>());
  auto c = tl::expand_dims<0>(tl::arange<0, C>());
  auto v = tl::load(x + r * C + c);
  tl::store(where_max + tl::arange<0, C>(), tl::histogram<C>(tl::argmax<1>(v)));
  auto b = tl::load(bytes + tl::arange<0, R * C>());
  tl::store(byte_counts + tl::arange<0, 256>(), tl::histogram<256>(b));
}

// A block sorted, ascending or descending; the values hold -0.0, +0.0, infinities and NaNs,
// and the tail past the data loads +inf.
template <int B, bool DESC> TILEC_KERNEL void sort_1d(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * B + tl::arange<0, B>();
  auto v = tl::load(x + offs, offs < n, INFINITY);
  tl::store(out + offs, tl::sort<0, DESC>(v), offs < n);
}

// An [R, C] block of a rows x C matrix: the K largest halves of each row (Triton's tl.topk),
// and an int tile sorted down its columns (axis 0); rows past the data load 0.
template <int R, int C, int K>
TILEC_KERNEL void sort_2d(const tl::half *x, const int *ints, tl::half *top, int *cols_sorted,
                          int rows) {
  auto r = tl::program_id(0) * R + tl::expand_dims<1>(tl::arange<0, R>());
  auto c = tl::expand_dims<0>(tl::arange<0, C>());
  auto k = tl::expand_dims<0>(tl::arange<0, K>());
  tl::store(top + r * K + k, tl::topk<K>(tl::load(x + r * C + c, r < rows, 0.0f)), r < rows);
  auto v = tl::load(ints + r * C + c, r < rows, 0);
  tl::store(cols_sorted + r * C + c, tl::sort<0>(v), r < rows);
}

// An [A, B, C] tile of int8 sorted along its middle axis, descending.
template <int A, int B, int C> TILEC_KERNEL void rank3_sort(const int8_t *x, int8_t *out) {
  auto i = tl::expand_dims<2>(tl::expand_dims<1>(tl::arange<0, A>()));
  auto j = tl::expand_dims<2>(tl::expand_dims<0>(tl::arange<0, B>()));
  auto k = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, C>()));
  auto offs = i * (B * C) + j * C + k;
  tl::store(out + offs, tl::sort<1, true>(tl::load(x + offs)));
}
