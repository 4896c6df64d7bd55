// A pipelined loop whose index tile (start + arange) feeds both a staged tl::dot operand and a
// plain load: the arange under it is computed by both parts of the schedule (it was left to
// the producer only, and lower-pipeline's output then read it where it was not defined). The
// plain load reads 2-byte elements, which stay in registers (a float one would be staged too:
// pipeline_side_loads.cpp).
#include <tilec/tl.h>

template <int BM, int BN, int D>
TILEC_KERNEL void k(const tl::half *a, const tl::half *b, const tl::half *s, float *out, int n) {
  auto offs_d = tl::arange<0, D>();
  auto offs_n = tl::arange<0, BN>();
  auto b_tile = tl::load(b + tl::expand_dims<1>(offs_n) * D + tl::expand_dims<0>(offs_d));
  auto acc = tl::zeros<float, BN, BM>();
  for (int start = 0; start < n; start += BM) {
    auto offs_m = start + tl::arange<0, BM>();
    auto a_t = tl::load(a + tl::expand_dims<0>(offs_m) * D + tl::expand_dims<1>(offs_d),
                        tl::expand_dims<0>(offs_m) < n, 0.0f);
    auto row = tl::load(s + offs_m, offs_m < n, 0.0f);
    acc += tl::dot(b_tile, a_t) * tl::expand_dims<0>(tl::cast<float>(row));
  }
  tl::store(out + tl::expand_dims<1>(offs_n) * BM + tl::expand_dims<0>(tl::arange<0, BM>()), acc);
}
// IR-LABEL: IR after pipeline
// IR:       for "<" pipelined
// IR:       = arange producer+consumer [0] [BM] : tile<int, BM>
// IR-NEXT:  :offs_m = binary "+" producer+consumer
// CU-LABEL: k(const tl::half* a, const tl::half* b, const tl::half* s, float* out, int n, const __grid_constant__ tilec::TmaMap a_map, const unsigned tma_maps_live) {
// CU:       tilec::cp_async
