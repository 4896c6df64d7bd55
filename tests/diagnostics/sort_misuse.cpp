// tl::sort and tl::topk misused: located errors that say what to write.
#include <tilec/tl.h>

template <int B, int AXIS>
TILEC_KERNEL void k(const float *x, const tl::float8_e4m3 *f8, float *out) {
  auto i = tl::arange<0, B>();
  auto v = tl::load(x + i);
  tl::store(out + i, tl::sort<1>(v));
  // CHECK: sort_misuse.cpp:[[@LINE-1]]:22: error: tl::sort<1>: a rank-1 tile has the axis 0 (or -1)
  tl::store(out + i, tl::sort<AXIS>(v));
  // CHECK: sort_misuse.cpp:[[@LINE-1]]:22: error: tl::sort<AXIS>: the axis must be known when the kernel is translated (a literal such as 0 or -1), not a template parameter
  tl::store(out + i, tl::sort(tl::sum(v)));
  // CHECK: sort_misuse.cpp:[[@LINE-1]]:31: error: tl::sort takes a tile of float, double, half, bfloat16, integers or bool, not float
  tl::store(out + i, tl::sort(x + i));
  // CHECK: sort_misuse.cpp:[[@LINE-1]]:31: error: tl::sort takes a tile of float, double, half, bfloat16, integers or bool, not tile<const float*, B>
  tl::store(out + i, tl::sort(tl::load(f8 + i)));
  // CHECK: sort_misuse.cpp:[[@LINE-1]]:31: error: tl::sort takes a tile of float, double, half, bfloat16, integers or bool, not tile<tl::float8_e4m3, B>; cast it to tl::half first
  tl::store(out + tl::arange<0, 4>(), tl::topk(v));
  // CHECK: sort_misuse.cpp:[[@LINE-1]]:39: error: tl::topk needs the count as a template argument: tl::topk<K>(t)
  tl::store(out + tl::arange<0, 4>(), tl::topk<3>(v));
  // CHECK: sort_misuse.cpp:[[@LINE-1]]:39: error: tl::topk<3>: K is the size of the result along the axis, a power of two; take a power of two and use the first K
  auto wide = tl::expand_dims<0>(tl::load(x + tl::arange<0, 4>())) +
              tl::expand_dims<1>(tl::zeros<float, B>()); // [B, 4]
  tl::store(out + tl::arange<0, 8>(), tl::topk<8, 1>(wide));
  // CHECK: sort_misuse.cpp:[[@LINE-1]]:39: error: tl::topk<8>: the axis holds 4 elements; K may be at most that
}
// CHECK: 8 errors generated.
