// The device library's loads and stores carry their cache hints into PTX: NVRTC compiles
// accesses under every eviction policy, cache operator and volatile (runs of 16 bytes, the
// lanes at a mask's edge, 2- and 1-byte accesses, scalar accesses) to PTX, which must hold
// the qualified instructions (ld.global.cg, ld.volatile.global, st.global.cs, ...).
#include "ptx_of.h"

#include <gtest/gtest.h>

#include <string>

namespace {

const char *kSource = R"(
#include <tilec/device.cuh>
using tilec::Cache;
using tilec::Evict;

// 16-byte runs of four floats, loaded and stored under one policy each.
#define RUN16(NAME, LE, LC, SE, SC)                                                      \
  extern "C" __global__ void NAME(const float *x, float *y) {                           \
    float v[4];                                                                          \
    tilec::load_vec<4, LE, LC>(v, x + 4 * threadIdx.x);                                  \
    tilec::store_vec<4, SE, SC>(y + 4 * threadIdx.x, v, true);                           \
  }
RUN16(ca_wb, Evict::normal, Cache::ca, Evict::normal, Cache::wb)
RUN16(cg_cg, Evict::normal, Cache::cg, Evict::normal, Cache::cg)
RUN16(cv_cs, Evict::normal, Cache::cv, Evict::normal, Cache::cs)
RUN16(volatile_wt, Evict::normal, Cache::volatile_, Evict::normal, Cache::wt)
RUN16(cg_last, Evict::last, Cache::cg, Evict::last, Cache::wt)
RUN16(first_last, Evict::first, Cache::normal, Evict::last, Cache::normal)

// Lanes at a mask's edge are accessed one by one, with the same qualifiers.
extern "C" __global__ void edge(const float *x, float *y, const bool *m) {
  float v[4];
  tilec::load_vec<4, false, Evict::normal, Cache::cg>(v, x + 4 * threadIdx.x, m, 0.0f);
  tilec::store_vec<4, false, Evict::normal, Cache::wt>(y + 4 * threadIdx.x, v, m, true);
}

// Accesses of 2 and 1 bytes, and scalar ones.
extern "C" __global__ void narrow(const tl::half *h, tl::half *g, const uint8_t *b, uint8_t *c,
                                  const int *flag, int *seen) {
  tl::half v;
  tilec::load_vec<1, Evict::normal, Cache::cg>(&v, h + threadIdx.x);
  tilec::store_vec<1, Evict::normal, Cache::cs>(g + threadIdx.x, &v, true);
  uint8_t u;
  tilec::load_vec<1, Evict::normal, Cache::volatile_>(&u, b + threadIdx.x);
  tilec::store_vec<1, Evict::normal, Cache::wt>(c + threadIdx.x, &u, true);
  const int f = tilec::load_one<Evict::normal, Cache::volatile_>(flag);
  if (threadIdx.x == 0)
    tilec::store_one<Evict::normal, Cache::wb>(seen, f + 1);
}
)";

void expect_qualified(const std::string &arch) {
  std::string ptx = tilec::test::ptx_of(kSource, "cache_qualifiers.cu", arch);
  ASSERT_FALSE(ptx.empty());
  for (const char *ins : {"ld.global.ca.v4.u32",
                          "st.global.wb.v4.u32", // ca_wb
                          "ld.global.cg.v4.u32",
                          "st.global.cg.v4.u32", // cg_cg
                          "ld.global.cv.v4.u32",
                          "st.global.cs.v4.u32", // cv_cs
                          "ld.volatile.global.v4.u32",
                          "st.global.wt.v4.u32", // volatile_wt
                          "ld.global.cg.L2::cache_hint.v4.u32",
                          "st.global.wt.L2::cache_hint.v4.u32",
                          "ld.global.cs.v4.u32",
                          "st.global.L1::evict_last.L2::cache_hint.v4.u32",
                          "ld.global.cg.u32",
                          "st.global.wt.u32", // edge lanes
                          "ld.global.cg.b16",
                          "st.global.cs.b16",
                          "ld.volatile.global.u8",
                          "st.global.wt.u8",
                          "ld.volatile.global.u32",
                          "st.global.wb.u32"}) // scalars
    EXPECT_NE(ptx.find(ins), std::string::npos) << ins << " is missing from the PTX for " << arch;
}

} // namespace

TEST(CacheQualifiersPtx, Sm80) { expect_qualified("compute_80"); }
TEST(CacheQualifiersPtx, Sm90a) { expect_qualified("compute_90a"); }
