// A pipelined loop over a paged cache: the keys' and values' addresses come from page-table
// entries loaded in the loop (vLLM's decode attention), and the two tiles' layouts differ (the
// values are wider than the keys), so the entries are converted to each. The entries' load and the conversions are part of the
// producer (copies issued stages ahead read the entries of their own iteration), and the
// consumer, which reads the entries too (the scores' mask), loads them again.
#include <tilec/tl.h>

template <int BH, int BN, int D, int DV, int PAGE>
TILEC_KERNEL void paged(const tl::half *q, const tl::half *k, const tl::half *v, const int *table,
                        float *out, int n) {
  auto rows = tl::arange<0, BH>();
  auto offs_d = tl::arange<0, D>();
  auto qt = tl::load(q + tl::expand_dims<1>(rows) * D + tl::expand_dims<0>(offs_d));
  auto offs_dv = tl::arange<0, DV>();
  auto acc = tl::zeros<float, BH, DV>();
  for (int start = 0; start < n; start += BN) {
    auto offs_n = start + tl::arange<0, BN>();
    auto page = tl::load(table + offs_n / PAGE, offs_n < n, 0);
    auto slot = page * PAGE + offs_n % PAGE;
    auto kt = tl::load(k + tl::expand_dims<0>(slot) * D + tl::expand_dims<1>(offs_d),
                       tl::expand_dims<0>(offs_n) < n, 0.0f);
    auto s = tl::dot(qt, kt);
    auto p = tl::where(tl::expand_dims<0>(slot) >= 0, tl::exp(s), 0.0f);
    auto vt = tl::load(v + tl::expand_dims<1>(slot) * DV + tl::expand_dims<0>(offs_dv),
                       tl::expand_dims<1>(offs_n) < n, 0.0f);
    acc += tl::dot(tl::cast<tl::half>(p), vt);
  }
  tl::store(out + tl::expand_dims<1>(rows) * DV + tl::expand_dims<0>(offs_dv), acc);
}
// IR-LABEL: IR after pipeline
// IR:       for "<" pipelined
// IR:       :page = load producer+consumer
// IR:       = convert_layout producer %{{[0-9]+}}:slot
// IR:       = load async producer
// IR:       :vt = load async producer
// CU:       tilec::cp_async
