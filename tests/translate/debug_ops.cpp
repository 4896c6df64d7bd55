// tl::device_print and tl::device_assert: the printed and checked elements are the ones each
// thread owns (copies stay quiet), indices as the tile's own coordinates; the message is a
// C string in the generated code, and a failed assertion names the kernel source's line.
#include <tilec/tl.h>

template <int BM, int BN>
TILEC_KERNEL void debug_ops(const float* x, int n) {
  auto rows = tl::arange<0, BM>();
  auto cols = tl::arange<0, BN>();
  auto v = tl::load(x + tl::expand_dims<1>(rows) * n + tl::expand_dims<0>(cols));
  tl::device_print("v", v);
  tl::device_print("rows \"and\" n\n", rows, n, tl::expand_dims<1>(rows) < n);
  tl::device_assert(v >= 0.0f, "v must not be negative: 100%");
  tl::device_assert(n > 0, "n > 0");
}

// IR-LABEL: kernel @debug_ops<int BM, int BN>
// IR:      print "v" %{{[0-9]+}}:v
// The IR prints messages with C escapes, so that each op stays on one line.
// IR:      print "rows \"and\" n\n" %{{[0-9]+}}:rows, %{{[0-9]+}}:n, %{{[0-9]+}}
// IR:      assert "v must not be negative: 100%" %{{[0-9]+}}
// IR:      assert "n > 0" %{{[0-9]+}}

// CU:      // debug_ops.cpp:11: tl::device_print("v", v)
// CU-NEXT: if (L0::owner(tid))
// CU-NEXT: #pragma unroll
// CU-NEXT:   for (int i = 0; i < L0::ELEMS; ++i)
// CU-NEXT:     tilec::device_print("v", L0::row(tid, i), L0::col(tid, i), v[i]);
// Several operands: each line says which; a scalar prints once; a [BM, 1] tile held like
// its rank-1 rows prints as (row, 0).
// CU:        tilec::device_print("rows \"and\" n\n (operand 0)", L1::coord(tid, i), rows[i]);
// CU:      if (tid == 0) tilec::device_print("rows \"and\" n\n (operand 1)", n);
// CU:        tilec::device_print("rows \"and\" n\n (operand 2)", L1::coord(tid, i), 0, (rows[i] < n));
// CU:      if (L0::owner(tid))
// CU:        if (!((v[i] >= 0.0f))) tilec::device_assert_fail("v must not be negative: 100%", "debug_ops.cpp", 13, "debug_ops", tilec::linear_index<L0>(tid, i));
// CU:      if (tid == 0 && !((n > 0))) tilec::device_assert_fail("n > 0", "debug_ops.cpp", 14, "debug_ops", 0);
