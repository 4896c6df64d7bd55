// run_interpreter.cpp - the same kernel source compiled for the host and run by the
// interpreter, one program instance at a time, on host pointers.
#include "runners.h"

#include <tilec/interpret.h>

#include "batched_matmul.cpp"

#include "host_check.h"

#include <stdexcept>

namespace example {
namespace {

template <int BM, int BN, int BK, int GM>
void launch(const Problem &p, const Matrices &m, const Config &c) {
  tilec::interpret::launch(batched_matmul<BM, BN, BK, GM, tl::half>,
                           tilec::Grid{programs_for(p, c), uint32_t(p.batch)}, m.a, m.b, m.c, p.M,
                           p.N, p.K, p.stride_a, p.lda, p.stride_b, p.ldb, p.stride_c, p.ldc);
}

} // namespace

void batched_matmul_in_interpreter(const Problem &p, const Matrices &m, const Config &c) {
  poison_host(m.c, m.c_len * sizeof(tl::half));
  if (c == kGpuConfig)
    launch<128, 128, 32, 8>(p, m, c);
  else if (c == kSmallConfig)
    launch<32, 32, 16, 2>(p, m, c);
  else
    throw std::invalid_argument(kBadConfig);
}

} // namespace example
