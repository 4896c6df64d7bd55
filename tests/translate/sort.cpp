// tl::sort and tl::topk (Triton's tl.sort, tl.topk): one `sort` op with the axis and whether it
// sorts descending; a topk is a descending sort whose result keeps the first K of each line. The
// emitter runs a bitonic network over the lines in shared memory (tilec::sort_lines).
#include <tilec/tl.h>

template <int R, int C, int K, bool DESC>
TILEC_KERNEL void sorts(const float *x, float *rows_sorted, float *cols_sorted, float *top,
                        int rows) {
  auto r = tl::program_id(0) * R + tl::expand_dims<1>(tl::arange<0, R>());
  auto c = tl::expand_dims<0>(tl::arange<0, C>());
  auto v = tl::load(x + r * C + c, r < rows, 0.0f);
  tl::store(rows_sorted + r * C + c, tl::sort<-1, DESC>(v), r < rows);
  tl::store(cols_sorted + r * C + c, tl::sort<0>(v), r < rows);
  auto k = tl::expand_dims<0>(tl::arange<0, K>());
  tl::store(top + r * K + k, tl::topk<K>(v), r < rows);
}

// IR-LABEL: kernel @sorts<int R, int C, int K, bool DESC>
// IR:       {{%[0-9]+}} = sort %{{[0-9]+}}:v [1] [DESC] : tile<float, R, C>
// IR:       {{%[0-9]+}} = sort %{{[0-9]+}}:v [0] [0] : tile<float, R, C>
// K is a template parameter: whether it fits the axis is checked where the kernel is compiled.
// IR:       static_assert "tl::topk<K>: K is a power of two no larger than the axis (C)"
// IR:       {{%[0-9]+}} = sort %{{[0-9]+}}:v [1] [1] : tile<float, R, K>

// CU-LABEL: sorts(
// CU:       // v [R, C] sorted along axis 1, by a sorting network in shared memory
// CU:       tilec::sort_lines<[[L:L[0-9]+]], [[L]], C, C, 1, bool(DESC), THREADS>(v, {{t[0-9]+}}, tid, smem);
// CU:       // v [R, C] sorted along axis 0, by a sorting network in shared memory
// CU:       tilec::sort_lines<[[L]], [[L]], R, R, C, false, THREADS>(v, {{t[0-9]+}}, tid, smem);
// CU:       static_assert((K) > 0 && ((K) & ((K) - 1)) == 0 && (K) <= (C), "tl::topk<K>: K is a power of two no larger than the axis (C)");
// CU:       // v [R, C] sorted along axis 1, the first K of each line kept, by a sorting network in shared memory
// CU:       tilec::sort_lines<[[L]], {{L[0-9]+}}, C, K, 1, true, THREADS>(v, {{t[0-9]+}}, tid, smem);
