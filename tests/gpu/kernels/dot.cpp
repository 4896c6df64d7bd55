// tl::dot on the GPU: one tile from register operands (the operands are staged through
// shared memory by the dot itself), and a loop over K whose loads are pipelined.
#include <tilec/tl.h>

// c[:m, :n] = a[:m, :k] @ b[:k, :n] for one BM x BN x BK tile (m <= BM, n <= BN, k <= BK).
template <int BM, int BN, int BK, class T, class Acc, bool IEEE>
TILEC_KERNEL void dot_tile(const T *a, const T *b, Acc *c, int m, int n, int k) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto am = (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rk) < k);
  auto av = tl::load(a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk), am, 0);
  auto bm = (tl::expand_dims<1>(rk) < k) && (tl::expand_dims<0>(rn) < n);
  auto bv = tl::load(b + tl::expand_dims<1>(rk) * n + tl::expand_dims<0>(rn), bm, 0);
  auto acc = tl::zeros<Acc, BM, BN>();
  if constexpr (IEEE)
    acc = tl::dot(av, bv, acc, tl::precision::ieee);
  else
    acc = tl::dot(av, bv, acc);
  auto cm = (tl::expand_dims<1>(tl::arange<0, BM>()) < m) &&
            (tl::expand_dims<0>(tl::arange<0, BN>()) < n);
  tl::store(c + tl::expand_dims<1>(tl::arange<0, BM>()) * n +
                tl::expand_dims<0>(tl::arange<0, BN>()),
            acc, cm);
}

// c = a @ b over a grid of BM x BN tiles, walking K in BK steps; rows, columns and K are
// all masked, so any m, n, k work.
template <int BM, int BN, int BK, class T, class Acc>
TILEC_KERNEL void dot_loop(const T *a, const T *b, Acc *c, int m, int n, int k) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  auto rm = pid_m * BM + tl::arange<0, BM>();
  auto rn = pid_n * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk);
  auto b_ptrs = b + tl::expand_dims<1>(rk) * n + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<Acc, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto av = tl::load(a_ptrs, (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rk) < k - k0), 0);
    auto bv = tl::load(b_ptrs, (tl::expand_dims<1>(rk) < k - k0) && (tl::expand_dims<0>(rn) < n), 0);
    acc = tl::dot(av, bv, acc);
    a_ptrs += BK;
    b_ptrs += BK * n;
  }
  auto cm = pid_m * BM + tl::arange<0, BM>();
  auto cn = pid_n * BN + tl::arange<0, BN>();
  tl::store(c + tl::expand_dims<1>(cm) * n + tl::expand_dims<0>(cn), acc,
            (tl::expand_dims<1>(cm) < m) && (tl::expand_dims<0>(cn) < n));
}

// c = a @ b where a is stored transposed (at: [k, m], row-major) when A_T, and b is stored
// transposed (bt: [n, k], row-major) when B_T; the operands are read with tl::trans.
template <int BM, int BN, int BK, class T, class Acc, bool A_T, bool B_T>
TILEC_KERNEL void dot_loop_t(const T *a, const T *b, Acc *c, int m, int n, int k) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  auto rm = pid_m * BM + tl::arange<0, BM>();
  auto rn = pid_n * BN + tl::arange<0, BN>();
  auto acc = tl::zeros<Acc, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto rk = k0 + tl::arange<0, BK>();
    if constexpr (A_T && B_T) {
      auto at = tl::load(a + tl::expand_dims<1>(rk) * m + tl::expand_dims<0>(rm),
                         (tl::expand_dims<1>(rk) < k) && (tl::expand_dims<0>(rm) < m), 0);
      auto bt = tl::load(b + tl::expand_dims<1>(rn) * k + tl::expand_dims<0>(rk),
                         (tl::expand_dims<1>(rn) < n) && (tl::expand_dims<0>(rk) < k), 0);
      acc = tl::dot(tl::trans(at), tl::trans(bt), acc);
    } else if constexpr (B_T) {
      auto av = tl::load(a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk),
                         (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rk) < k), 0);
      auto bt = tl::load(b + tl::expand_dims<1>(rn) * k + tl::expand_dims<0>(rk),
                         (tl::expand_dims<1>(rn) < n) && (tl::expand_dims<0>(rk) < k), 0);
      acc = tl::dot(av, tl::trans(bt), acc);
    } else {
      auto at = tl::load(a + tl::expand_dims<1>(rk) * m + tl::expand_dims<0>(rm),
                         (tl::expand_dims<1>(rk) < k) && (tl::expand_dims<0>(rm) < m), 0);
      auto bv = tl::load(b + tl::expand_dims<1>(rk) * n + tl::expand_dims<0>(rn),
                         (tl::expand_dims<1>(rk) < k) && (tl::expand_dims<0>(rn) < n), 0);
      acc = tl::dot(tl::trans(at), bv, acc);
    }
  }
  auto cm = pid_m * BM + tl::arange<0, BM>();
  auto cn = pid_n * BN + tl::arange<0, BN>();
  tl::store(c + tl::expand_dims<1>(cm) * n + tl::expand_dims<0>(cn), acc,
            (tl::expand_dims<1>(cm) < m) && (tl::expand_dims<0>(cn) < n));
}

// c = a @ bt^T with bt stored [n, k] row-major (the A @ B^T of attention scores), in a loop
// the translator pipelines: the dot reads bt's stage buffers transposed.
template <int BM, int BN, int BK, class T, class Acc>
TILEC_KERNEL void dot_loop_bt(const T *a, const T *bt, Acc *c, int m, int n, int k) {
  int pid_m = tl::program_id(0);
  int pid_n = tl::program_id(1);
  auto rm = pid_m * BM + tl::arange<0, BM>();
  auto rn = pid_n * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk);
  auto bt_ptrs = bt + tl::expand_dims<1>(rn) * k + tl::expand_dims<0>(rk);
  auto acc = tl::zeros<Acc, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto av = tl::load(a_ptrs, (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rk) < k - k0), 0);
    auto btv = tl::load(bt_ptrs, (tl::expand_dims<1>(rn) < n) && (tl::expand_dims<0>(rk) < k - k0), 0);
    acc = tl::dot(av, tl::trans(btv), acc);
    a_ptrs += BK;
    bt_ptrs += BK;
  }
  auto cm = pid_m * BM + tl::arange<0, BM>();
  auto cn = pid_n * BN + tl::arange<0, BN>();
  tl::store(c + tl::expand_dims<1>(cm) * n + tl::expand_dims<0>(cn), acc,
            (tl::expand_dims<1>(cm) < m) && (tl::expand_dims<0>(cn) < n));
}

// One tile of row indices serves both the loads of A (blocked layout) and the store of the
// result (the tensor cores' layout): the translator converts the store's copies.
template <int BM, int BN, int BK>
TILEC_KERNEL void shared_rows(const tl::half *a, const tl::half *b, float *c, int m) {
  auto rows = tl::expand_dims<1>(tl::program_id(0) * BM + tl::arange<0, BM>());
  auto rk = tl::arange<0, BK>();
  auto rn = tl::arange<0, BN>();
  auto av = tl::load(a + rows * BK + tl::expand_dims<0>(rk), rows < m, 0.0f);
  auto bv = tl::load(b + tl::expand_dims<1>(rk) * BN + tl::expand_dims<0>(rn));
  auto acc = tl::dot(av, bv);
  tl::store(c + rows * BN + tl::expand_dims<0>(tl::arange<0, BN>()), acc, rows < m);
}

// Row softmax of a product (the inner block of attention): reductions of a dot result and
// the reduced rows broadcast back into it.
template <int BM, int BN, int BK>
TILEC_KERNEL void dot_softmax(const tl::half *a, const tl::half *b, float *out) {
  auto rm = tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto av = tl::load(a + tl::expand_dims<1>(rm) * BK + tl::expand_dims<0>(rk));
  auto bv = tl::load(b + tl::expand_dims<1>(rk) * BN + tl::expand_dims<0>(rn));
  auto s = tl::dot(av, bv);
  auto p = tl::exp(s - tl::expand_dims<1>(tl::max<1>(s)));
  tl::store(out + tl::expand_dims<1>(tl::arange<0, BM>()) * BN + tl::expand_dims<0>(tl::arange<0, BN>()),
            p / tl::expand_dims<1>(tl::sum<1>(p)));
}

// The same c = a @ b written the other ways users write it: the K offsets recomputed from
// the loop index each iteration (no pointers carried), and masks on every dimension. The
// translator pipelines it like dot_loop (the offsets are recomputed in each operand's layout).
template <int BM, int BN, int BK, class T, class Acc>
TILEC_KERNEL void dot_loop_offsets(const T *a, const T *b, Acc *c, int m, int n, int k) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto acc = tl::zeros<Acc, BM, BN>();
  for (int kb = 0; kb < tl::cdiv(k, BK); ++kb) {
    auto rk = kb * BK + tl::arange<0, BK>();
    auto av = tl::load(a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk),
                       (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rk) < k), 0);
    auto bv = tl::load(b + tl::expand_dims<1>(rk) * n + tl::expand_dims<0>(rn),
                       (tl::expand_dims<1>(rk) < k) && (tl::expand_dims<0>(rn) < n), 0);
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * n + tl::expand_dims<0>(rn), acc,
            (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rn) < n));
}

// c = a @ w^T with w stored [n, k] (an nn.Linear weight), read as a [BK, BN] tile whose
// elements are contiguous down its columns: the translator loads it as [BN, BK] rows and
// the tensor cores read it transposed.
template <int BM, int BN, int BK, class T, class Acc>
TILEC_KERNEL void dot_loop_wnk(const T *a, const T *w, Acc *c, int m, int n, int k) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto acc = tl::zeros<Acc, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto rk = k0 + tl::arange<0, BK>();
    auto av = tl::load(a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk),
                       (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rk) < k), 0);
    auto wv = tl::load(w + tl::expand_dims<0>(rn) * k + tl::expand_dims<1>(rk),
                       (tl::expand_dims<1>(rk) < k) && (tl::expand_dims<0>(rn) < n), 0);
    acc = tl::dot(av, wv, acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * n + tl::expand_dims<0>(rn), acc,
            (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rn) < n));
}

// c = a @ b with a's column stride a template parameter (1 here): vector loads as with a
// literal 1.
template <int BM, int BN, int BK, class T, class Acc, int STRIDE_AK>
TILEC_KERNEL void dot_loop_stride(const T *a, const T *b, Acc *c, int m, int n, int k) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto acc = tl::zeros<Acc, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto rk = k0 + tl::arange<0, BK>();
    auto av = tl::load(a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk) * STRIDE_AK,
                       (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rk) < k), 0);
    auto bv = tl::load(b + tl::expand_dims<1>(rk) * n + tl::expand_dims<0>(rn),
                       (tl::expand_dims<1>(rk) < k) && (tl::expand_dims<0>(rn) < n), 0);
    acc = tl::dot(av, bv, acc);
  }
  tl::store(c + tl::expand_dims<1>(rm) * n + tl::expand_dims<0>(rn), acc,
            (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rn) < n));
}

// dot_loop_wnk with pointer tiles advanced each iteration (tutorial 03's spelling): the
// translator carries w's pointers transposed instead, so that they too load along rows.
template <int BM, int BN, int BK, class T, class Acc>
TILEC_KERNEL void dot_loop_wnk_ptrs(const T *a, const T *w, Acc *c, int m, int n, int k) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto a_ptrs = a + tl::expand_dims<1>(rm) * k + tl::expand_dims<0>(rk);
  auto w_ptrs = w + tl::expand_dims<0>(rn) * k + tl::expand_dims<1>(rk);
  auto acc = tl::zeros<Acc, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    acc = tl::dot(tl::load(a_ptrs, (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rk) < k - k0), 0),
                  tl::load(w_ptrs, (tl::expand_dims<1>(rk) < k - k0) && (tl::expand_dims<0>(rn) < n), 0),
                  acc);
    a_ptrs += BK;
    w_ptrs += BK;
  }
  tl::store(c + tl::expand_dims<1>(rm) * n + tl::expand_dims<0>(rn), acc,
            (tl::expand_dims<1>(rm) < m) && (tl::expand_dims<0>(rn) < n));
}

// A pipelined dot loop that also reads two rows per block (pipeline's side loads, staged
// beside the dot operand and read in the dot result's layout): for this program's BN keys,
// out[j, c] = sum over blocks b of exp2(k_j . q_(b*BM + c) - mx[b*BM + c]) * w[b*BM + c],
// with the query rows past n masked off (mx 0 there, w 0: nothing added).
template <int BM, int BN, int D>
TILEC_KERNEL void staged_rows(const tl::half *q, const tl::half *k, const float *mx,
                              const double *w, float *out, int n) {
  auto offs_n = tl::program_id(0) * BN + tl::arange<0, BN>();
  auto offs_d = tl::arange<0, D>();
  auto k_tile = tl::load(k + tl::expand_dims<1>(offs_n) * D + tl::expand_dims<0>(offs_d),
                         tl::expand_dims<1>(offs_n) < n, 0.0f);
  auto acc = tl::zeros<float, BN, BM>();
  for (int start = 0; start < n; start += BM) {
    auto offs_m = start + tl::arange<0, BM>();
    auto q_t = tl::load(q + tl::expand_dims<0>(offs_m) * D + tl::expand_dims<1>(offs_d),
                        tl::expand_dims<0>(offs_m) < n, 0.0f);
    auto row_max = tl::load(mx + offs_m, offs_m < n, 0.0f);
    auto weight = tl::load(w + offs_m, offs_m < n);
    auto s = tl::dot(k_tile, q_t);
    acc += tl::exp2(s - tl::expand_dims<0>(row_max)) * tl::expand_dims<0>(tl::cast<float>(weight));
  }
  tl::store(out + tl::expand_dims<1>(offs_n) * BM + tl::expand_dims<0>(tl::arange<0, BM>()), acc,
            tl::expand_dims<1>(offs_n) < n);
}
