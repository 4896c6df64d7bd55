// split-ragged-loops: a loop over blocks masked against the row's end runs in two copies, the
// first over the blocks in which every mask is true, with the masks folded away (unmasked
// vector loads, the where() gone, an unmasked store), the second, the original, over the rest.
// Loops the pass leaves alone: a limit computed inside the loop, and tl::static_range.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void scaled_rows(const float *x, float *y, float *total, int n) {
  int row = tl::program_id(0);
  float sum = 0.0f;
  for (int i = 0; i < n; i += BLOCK) {
    auto offs = i + tl::arange<0, BLOCK>();
    auto mask = offs < n;
    auto v = tl::load(x + row * n + offs, mask, 0.0f);
    sum += tl::sum(tl::where(mask, v * v, 0.0f));
    tl::store(y + row * n + offs, v * 2.0f, mask);
  }
  tl::store(total + row, sum);
}

// The same loop written with an advancing pointer: the mask is `arange < n - i`.
template <int BLOCK>
TILEC_KERNEL void advancing(const float *x, float *y, int n) {
  for (int i = 0; i < n; i += BLOCK) {
    auto offs = tl::arange<0, BLOCK>();
    tl::store(y + offs, tl::load(x + offs, offs < n - i, 0.0f) * 2.0f, offs < n - i);
    x += BLOCK;
    y += BLOCK;
  }
}

template <int BLOCK>
TILEC_KERNEL void limit_inside(const int *lens, float *y, int n) {
  for (int i = 0; i < n; i += BLOCK) {
    int lim = tl::load(lens + i / BLOCK);
    auto offs = i + tl::arange<0, BLOCK>();
    tl::store(y + offs, 1.0f, offs < lim);
  }
}

template <int BLOCK>
TILEC_KERNEL void unrolled(float *y, int n) {
  for (int i : tl::static_range<0, 4>()) {
    auto offs = i * BLOCK + tl::arange<0, BLOCK>();
    tl::store(y + offs, 1.0f, offs < n);
  }
}

// A loop with a tl::dot: the scores' mask folds in the first copy, the loads keep theirs
// (pipelined copies masked exactly to the matrix can come from the copy engine).
template <int BM, int BN, int D>
TILEC_KERNEL void scores(const tl::half *q, const tl::half *k, float *out, int n) {
  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto d = tl::arange<0, D>();
  auto q_tile = tl::load(q + tl::expand_dims<1>(rows) * D + tl::expand_dims<0>(d));
  auto best = tl::full<float, BM>(-INFINITY);
  for (int j = 0; j < n; j += BN) {
    auto cols = j + tl::arange<0, BN>();
    auto k_t = tl::load(k + tl::expand_dims<0>(cols) * D + tl::expand_dims<1>(d),
                        tl::expand_dims<0>(cols) < n, 0.0f);
    auto s = tl::dot(q_tile, k_t);
    s = tl::where(tl::expand_dims<0>(cols) < n, s, -INFINITY);
    best = tl::maximum(best, tl::max<1>(s));
  }
  tl::store(out + rows, best);
}

// IR-LABEL: kernel @scaled_rows
// IR:       = constant [BLOCK - 1] : int64_t
// IR:       %{{[0-9]+}}:i_unmasked_end = cast %{{[0-9]+}} : int
// IR:       %{{[0-9]+}}:sum, %[[NEXT:[0-9]+]]:i_next = for "<" rolled %{{[0-9]+}}, %{{[0-9]+}}:i_unmasked_end, %{{[0-9]+}}, %{{[0-9]+}}:sum, %{{[0-9]+}}
// IR-NOT:   binary "<"
// IR:       load %{{[0-9]+}} : tile<float, BLOCK>
// IR-NOT:   select
// IR:       store %{{[0-9]+}}, %{{[0-9]+}}  {width=1}
// IR:       yield %{{[0-9]+}}:sum, %{{[0-9]+}}
// IR:       = for "<" %[[NEXT]]:i_next, %3:n,
// IR:       %[[MASK:[0-9]+]]:mask = binary "<" %{{[0-9]+}}:offs, %3:n
// IR:       load %{{[0-9]+}}, %[[MASK]]:mask, %{{[0-9]+}} : tile<float, BLOCK>
// IR:       select %[[MASK]]:mask
// IR:       store %{{[0-9]+}}, %{{[0-9]+}}, %[[MASK]]:mask
// IR-LABEL: kernel @advancing
// IR:       %{{[0-9]+}}:i_unmasked_end = cast
// IR:       = for "<" rolled
// IR-NOT:   binary "<"
// IR:       load %{{[0-9]+}} : tile<float, BLOCK>
// IR:       yield
// IR-LABEL: kernel @limit_inside
// IR-NOT:   unmasked_end
// IR-LABEL: kernel @unrolled
// IR-NOT:   unmasked_end
// IR-LABEL: kernel @scores
// IR:       %{{[0-9]+}}:j_unmasked_end = cast
// IR:       = for "<" rolled
// IR:       %[[KMASK:[0-9]+]] = binary "<"
// IR:       load %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<tl::half, D, BN>
// IR-NOT:   select
// IR:       yield
// IR:       = for "<" %{{[0-9]+}}:j_next
// IR:       load %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<tl::half, D, BN>
// IR:       select

// CU-LABEL: scaled_rows(
// CU:       const int64_t n_wide = tilec::cast<int64_t>(n);
// CU-NEXT:  const int i_unmasked_end = tilec::cast<int>(tilec::maximum(tilec::minimum(n_wide, (n_wide - int64_t(BLOCK - 1))), tilec::cast<int64_t>(0)));
// CU-NEXT:  // split_ragged_loops.cpp:11: for (int i = 0; i < n; i += BLOCK) [the blocks in which every mask is true: unmasked]
// CU-NEXT:  float sum = 0.0f;
// CU-NEXT:  int i_next = 0;
// CU-NEXT:  #pragma unroll 1
// CU-NEXT:  for (int [[I:i_[0-9]+]] = 0; [[I]] < i_unmasked_end; [[I]] += BLOCK) {
// CU-NOT:   mask_uniform
// CU:       tilec::load_vec<v_width>(&v[i], ((x + (row * n)) + offs[i]));
// CU-NOT:   mask_uniform
// CU:       tilec::store_vec<store_width>(((y + (row * n)) + offs[i]), &{{t[0-9]+}}[i], L0::owner(tid));
// CU-NEXT:  const int [[STEP:t[0-9]+]] = (i_next + BLOCK);
// CU-NEXT:  sum = sum_1;
// CU-NEXT:  i_next = [[STEP]];
// CU-NEXT:  }
// CU-NEXT:  // split_ragged_loops.cpp:11: for (int i = 0; i < n; i += BLOCK) [the blocks left: masked]
// CU-NEXT:  float sum_2 = sum;
// CU-NEXT:  for (int [[J:i_[0-9]+]] = i_next; [[J]] < n; [[J]] += BLOCK) {
// The second loop starts where the first stopped, a multiple of BLOCK: its accesses keep
// their vector width.
// CU:       constexpr int v_1_width = tilec::vector_width(tilec::cmin(L0::VEC, tilec::gcd(tilec::gcd((x_aligned ? 16 : 4), (n_div16 ? 64 : 4)), tilec::pow2_factor(BLOCK) * 4) / 4));
// CU:       tilec::load_vec<v_1_width, v_1_mask_uniform>(&v_1[i], ((x + (row * n)) + offs_1[i]), &mask[i], 0.0f);
// CU-LABEL: limit_inside(
// CU-NOT:   unmasked_end
// CU-LABEL: unrolled(
// CU-NOT:   unmasked_end
// CU-LABEL: scores(
// CU:       const int j_unmasked_end =
// CU:       [the blocks in which the tiles' masks are all true: unmasked (the loads keep theirs)]
// CU:       tilec::copy_tile_async<{{.*}}_mask_uniform,
// CU:       [the blocks left: masked]
