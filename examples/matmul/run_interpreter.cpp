// run_interpreter.cpp - the same kernel source compiled for the host and run by the
// interpreter, one program instance at a time, on host pointers.
#include "runners.h"

#include <tilec/interpret.h>

#include "matmul.cpp"

#include "host_check.h"

#include <stdexcept>

namespace example {
namespace {

template <int BM, int BN, int BK, int GM, class T, bool LEAKY>
void launch(const Problem &p, const Matrices<T> &m, const Config &c) {
  tilec::interpret::launch(matmul<BM, BN, BK, GM, T, LEAKY>, tilec::Grid{programs_for(p, c)},
                           m.a, m.b, m.c, p.M, p.N, p.K, p.lda, p.ldb, p.ldc);
}

template <class T, bool LEAKY>
void launch_config(const Problem &p, const Matrices<T> &m, const Config &c) {
  if (c == kGpuConfig)
    launch<128, 128, 32, 8, T, LEAKY>(p, m, c);
  else if (c == kSmallConfig)
    launch<32, 32, 16, 2, T, LEAKY>(p, m, c);
  else
    throw std::invalid_argument(kBadConfig);
}

} // namespace

template <class T>
void matmul_in_interpreter(const Problem &p, const Matrices<T> &m, const Config &c,
                           bool leaky_relu) {
  poison_host(m.c, m.c_len * sizeof(T));
  if (leaky_relu)
    launch_config<T, true>(p, m, c);
  else
    launch_config<T, false>(p, m, c);
}

template void matmul_in_interpreter<tl::half>(const Problem &, const Matrices<tl::half> &,
                                              const Config &, bool);
template void matmul_in_interpreter<tl::bfloat16>(const Problem &, const Matrices<tl::bfloat16> &,
                                                  const Config &, bool);

} // namespace example
