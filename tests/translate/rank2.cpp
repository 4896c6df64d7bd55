// Rank-2 tiles: a blocked layout for the [BM, BN] tile, slices for its rows and columns;
// broadcasting a row back reads the slice through from_parent; axis reductions.
#include <tilec/tl.h>

template <int BM, int BN>
TILEC_KERNEL void row_softmax_stats(const float* x, float* row_max, int m, int n, int stride) {
  auto rows = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto mask = (tl::expand_dims<1>(rows) < m) && (tl::expand_dims<0>(cols) < n);
  auto v = tl::load(x + tl::expand_dims<1>(rows) * stride + tl::expand_dims<0>(cols), mask,
                    -INFINITY);
  auto mx = tl::max<1>(v);
  auto e = tl::exp(v - tl::expand_dims<1>(mx));
  tl::store(row_max + rows, mx + tl::log(tl::sum<1>(e)), rows < m);
}

// IR-LABEL: kernel @row_softmax_stats<int BM, int BN>
// Reduced along its rows only: the warps split the rows first (warps_down).
// IR:      layout #0 blocked[BM, BN] warps_down max_vec=tilec::cmin(4, tilec::gcd((x_aligned ? 16 : 4), (stride_div16 ? 64 : 4)) / 4)
// IR-NEXT: layout #1 slice #0 dim=1
// IR-NEXT: layout #2 slice #0 dim=0
// IR:      %{{[0-9]+}}:rows = binary "+" {{.*}} : tile<int, BM> #1
// IR:      %{{[0-9]+}}:cols = arange [0] [BN] : tile<int, BN> #2
// IR:      = expand_dims %{{[0-9]+}}:rows [1] : tile<int, BM, 1> #1
// IR:      %{{[0-9]+}}:mx = reduce "max" %{{[0-9]+}}:v [1] : tile<float, BM> #1

// CU:      using L0 = tilec::Blocked2D<BM, BN, THREADS, L0_RUN, /*WARPS_DOWN=*/true>;
// CU-NEXT: // L1: the rows of L0 tiles
// CU-NEXT: using L1 = tilec::Slice<L0, 1>;
// CU:      using L2 = tilec::Slice<L0, 0>;
// CU:      __shared__ alignas(16) unsigned char smem[tilec::axis_scratch_bytes<L0, 1, float>()];
// CU:      rows[i] = (({{t[0-9]+}} * BM) + L1::coord(tid, i));
// CU:      mask[i] = ((rows[L1::from_parent(i)] < m) && (cols[L2::from_parent(i)] < n));
// CU:      tilec::load_vec<v_width, v_mask_uniform>(&v[i], ((x + (rows[L1::from_parent(i)] * stride)) + cols[L2::from_parent(i)]), &mask[i], (-tilec::infinity<float>()));
// CU:      float mx[L1::ELEMS];
// CU-NEXT: tilec::reduce_axis<L0, 1>(v, mx, tilec::MaxOp{}, tid, smem);
// CU:      e[i] = tilec::exp((v[i] - mx[L1::from_parent(i)]));
// CU:      tilec::reduce_axis<L0, 1>(e, {{t[0-9]+}}, tilec::SumOp{}, tid,
// CU:      L1::owner(tid));
