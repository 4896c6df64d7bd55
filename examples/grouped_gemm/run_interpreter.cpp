// run_interpreter.cpp - the same kernel source compiled for the host and run by the
// interpreter, one program instance at a time, on host pointers.
#include "runners.h"

#include <tilec/interpret.h>

#include "grouped_gemm.cpp"

#include "host_check.h"

#include <stdexcept>

namespace example {
namespace {

template <int BM, int BN, int BK, int ALIGN> void launch(const Groups &g, unsigned programs) {
  tilec::interpret::launch(grouped_gemm<BM, BN, BK, ALIGN, tl::half>, tilec::Grid{programs}, g.a,
                           g.b, g.c, g.offsets, g.sizes, g.lds, g.count);
}

} // namespace

void grouped_gemm_in_interpreter(const Groups &g, const Config &c, unsigned programs) {
  poison_host(g.c, g.c_len * sizeof(tl::half));
  if (c == kGpuConfig)
    launch<128, 128, 32, 1>(g, programs);
  else if (c == kGpuAlignedConfig)
    launch<128, 128, 32, 16>(g, programs);
  else if (c == kSmallConfig)
    launch<32, 32, 16, 1>(g, programs);
  else if (c == kSmallAlignedConfig)
    launch<32, 32, 16, 16>(g, programs);
  else
    throw std::invalid_argument(kBadConfig);
}

} // namespace example
