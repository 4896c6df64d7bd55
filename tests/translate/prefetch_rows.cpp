// Rows a program loads as whole tiles are prefetched into L2 ahead of its first tile load
// (prefetch-rows): rank-1 loads at p + arange(0, B) or p + (s + arange(0, B)), unmasked or
// masked by arange < n, whose pointer or offset comes from tl::program_id. The device library
// issues them where a thread's share of all the rows is at least 192 bytes, on sm_90. Rows
// every program reads (a weight), loads in loops and loads of other shapes get none.
#include <tilec/tl.h>

// A GLU backward pass: three rows of the program's own, written back in place.
template <class T, int n_cols, int BLOCK>
TILEC_KERNEL void glu_bwd(T *dc, T *a, T *b, const T *w, int stride) {
  int64_t row = tl::program_id(0);
  dc += row * stride;
  a += row * stride;
  b += row * stride;
  auto cols = tl::arange<0, BLOCK>();
  auto mask = cols < n_cols;
  auto g = tl::cast<float>(tl::load(dc + cols, mask, 0));
  auto x = tl::cast<float>(tl::load(a + cols, mask, 0));
  auto y = tl::cast<float>(tl::load(b + cols, mask, 0));
  auto weight = tl::cast<float>(tl::load(w + cols, mask, 0)); // the same row for every program
  tl::store(a + cols, tl::cast<T>(g * y * weight), mask);
  tl::store(b + cols, tl::cast<T>(g * x), mask);
}

// The same rows with the offsets computed first (`row * stride + cols`, Triton's tutorials'
// spelling): the row's start is made a scalar pointer next to its prefetch.
template <class T, int n_cols, int BLOCK>
TILEC_KERNEL void glu_bwd_offsets(T *dc, T *a, T *b, int stride) {
  auto cols = tl::arange<0, BLOCK>();
  auto offs = tl::program_id(0) * stride + cols;
  auto mask = cols < n_cols;
  auto g = tl::cast<float>(tl::load(dc + offs, mask, 0));
  auto x = tl::cast<float>(tl::load(a + offs, mask, 0));
  auto y = tl::cast<float>(tl::load(b + offs, mask, 0));
  tl::store(a + offs, tl::cast<T>(g * y), mask);
  tl::store(b + offs, tl::cast<T>(g * x), mask);
}

// Rows read in a loop (an online softmax over blocks): none.
template <int BLOCK>
TILEC_KERNEL void row_sums(const float *x, float *out, int n) {
  const float *row = x + tl::program_id(0) * n;
  float total = 0.0f;
  for (int i = 0; i < n; i += BLOCK) {
    auto cols = i + tl::arange<0, BLOCK>();
    total += tl::sum(tl::load(row + cols, cols < n, 0.0f));
  }
  tl::store(out + tl::program_id(0), total);
}

// IR-LABEL: kernel @glu_bwd<class T, int n_cols, int BLOCK>
// IR:       [[DC:%[0-9]+]] = addptr %0:dc
// IR:       [[A:%[0-9]+]] = addptr %1:a
// IR:       [[B:%[0-9]+]] = addptr %2:b
// IR:       [[N:%[0-9]+]] = constant [n_cols] : int
// The three before the first tile load, each with the bytes of all three:
// IR:       prefetch_l2 [[DC]], [[N]] [BLOCK] [BLOCK * sizeof(T) + BLOCK * sizeof(T) + BLOCK * sizeof(T)]
// IR-NEXT:  prefetch_l2 [[A]], [[N]] [BLOCK] [BLOCK * sizeof(T) + BLOCK * sizeof(T) + BLOCK * sizeof(T)]
// IR-NEXT:  prefetch_l2 [[B]], [[N]] [BLOCK] [BLOCK * sizeof(T) + BLOCK * sizeof(T) + BLOCK * sizeof(T)]
// IR-NEXT:  {{%[0-9]+}} = load
// IR-NOT:   prefetch_l2
// IR-LABEL: kernel @glu_bwd_offsets<class T, int n_cols, int BLOCK>
// IR:       [[ROW:%[0-9]+]] = binary "*" {{%[0-9]+}}, %3:stride : int
// IR:       [[P:%[0-9]+]] = addptr %0:dc, [[ROW]] : T*
// IR-NEXT:  prefetch_l2 [[P]], {{%[0-9]+}} [BLOCK]
// IR-NEXT:  {{%[0-9]+}} = addptr %1:a, [[ROW]] : T*
// IR-NEXT:  prefetch_l2
// IR-NEXT:  {{%[0-9]+}} = addptr %2:b, [[ROW]] : T*
// IR-NEXT:  prefetch_l2
// IR-NEXT:  {{%[0-9]+}} = load
// IR-LABEL: kernel @row_sums<int BLOCK>
// IR-NOT:   prefetch_l2

// CU-LABEL: glu_bwd(
// CU:       tilec::prefetch_row_l2<BLOCK, (BLOCK * sizeof(T) + BLOCK * sizeof(T) + BLOCK * sizeof(T)) / THREADS>(tid, [[DCP:t[0-9]+]], n_cols); // into L2 ahead of the load
// CU:       tilec::prefetch_row_l2<BLOCK, {{.*}}>(tid, [[AP:t[0-9]+]], n_cols);
// CU:       tilec::prefetch_row_l2<BLOCK, {{.*}}>(tid, [[BP:t[0-9]+]], n_cols);
// CU-NEXT:  // prefetch_rows.cpp:{{[0-9]+}}: tl::load(dc + cols, mask, 0)
// CU-NOT:   prefetch_row_l2
// CU-LABEL: glu_bwd_offsets(
// CU:       tilec::prefetch_row_l2<BLOCK, {{.*}}>(tid, (dc + [[ROW:t[0-9]+]]), n_cols);
// CU:       tilec::prefetch_row_l2<BLOCK, {{.*}}>(tid, (a + [[ROW]]), n_cols);
// CU:       tilec::prefetch_row_l2<BLOCK, {{.*}}>(tid, (b + [[ROW]]), n_cols);
// CU-LABEL: row_sums(
// CU-NOT:   prefetch_row_l2
