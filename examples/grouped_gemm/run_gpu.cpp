// run_gpu.cpp - grouped GEMM through the typed launcher that tilec generated. Every CUDA
// runtime call is checked; the launches themselves report errors as tilec::Error.
#include "grouped_gemm.tilec.h"
#include "runners.h"

#include "device_buffer.h"

#include <stdexcept>

namespace example {
namespace {

/// The groups on the device, exactly the host sizes so that a memory checker sees overreads.
struct DeviceGroups {
  DeviceBuffer<tl::half> a, b, c;
  DeviceBuffer<int64_t> offsets;
  DeviceBuffer<int> sizes, lds;
  explicit DeviceGroups(const Groups &g)
      : a(g.a, g.a_len), b(g.b, g.b_len), c(g.c_len), offsets(g.offsets, 3 * size_t(g.count)),
        sizes(g.sizes, 3 * size_t(g.count)), lds(g.lds, 3 * size_t(g.count)) {}
};

template <int ALIGN>
void launch(const DeviceGroups &d, int count, const Config &c, unsigned programs) {
  grouped_gemm<128, 128, 32, ALIGN, tl::half>(
      tilec::Grid{programs}, nullptr, d.a.data(), d.b.data(), d.c.data(), d.offsets.data(),
      d.sizes.data(), d.lds.data(), count, {.num_warps = c.num_warps, .num_stages = c.num_stages});
}

void launch_config(const DeviceGroups &d, int count, const Config &c, unsigned programs) {
  if (c == kGpuConfig)
    launch<1>(d, count, c, programs);
  else if (c == kGpuAlignedConfig)
    launch<16>(d, count, c, programs);
  else
    throw std::invalid_argument(kBadConfig);
}

} // namespace

unsigned gpu_programs() {
  int device = 0, sms = 0;
  CHECK_CUDA(cudaGetDevice(&device));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return unsigned(sms);
}

void grouped_gemm_on_gpu(const Groups &g, const Config &c, unsigned programs) {
  DeviceGroups d(g);
  d.c.poison();
  launch_config(d, g.count, c, programs);
  sync_device();
  d.c.copy_to(g.c);
}

double time_on_gpu_ms(const Groups &g, const Config &c, unsigned programs) {
  // Real data: tensor cores draw less power (and clock higher) on zeros.
  DeviceGroups d(g);
  return median_launch_ms([&] { launch_config(d, g.count, c, programs); });
}

} // namespace example
