// driver_api.h - the CUDA driver API, loaded with dlopen("libcuda.so.1") on first use.
//
// Nothing links libcuda: programs start on machines without a GPU, and gpu_available()
// (or the first launch) says why the driver cannot be used. Types come from <cuda.h>;
// only its declarations are used (through decltype), never its symbols.
#pragma once

#include <cuda.h>

#include <string>

namespace tilec::detail {

/// Entry points resolved from libcuda. Members are named without the `cu` prefix because
/// <cuda.h> #defines several cu* names to their versioned symbols (cuMemAlloc_v2, ...).
struct DriverApi {
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuGetErrorName) get_error_name = nullptr;
  decltype(&::cuGetErrorString) get_error_string = nullptr;
  decltype(&::cuDeviceGetCount) device_get_count = nullptr;
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDeviceGetAttribute) device_get_attribute = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) primary_ctx_retain = nullptr;
  decltype(&::cuCtxGetCurrent) ctx_get_current = nullptr;
  decltype(&::cuCtxSetCurrent) ctx_set_current = nullptr;
  decltype(&::cuCtxGetDevice) ctx_get_device = nullptr;
  decltype(&::cuCtxSynchronize) ctx_synchronize = nullptr;
  decltype(&::cuModuleLoadData) module_load_data = nullptr;
  decltype(&::cuModuleGetFunction) module_get_function = nullptr;
  decltype(&::cuModuleUnload) module_unload = nullptr;
  decltype(&::cuFuncSetAttribute) func_set_attribute = nullptr;
  decltype(&::cuFuncGetAttribute) func_get_attribute = nullptr;
  decltype(&::cuLaunchKernel) launch_kernel = nullptr;
  decltype(&::cuMemAlloc) mem_alloc = nullptr;
  decltype(&::cuMemFree) mem_free = nullptr;
  decltype(&::cuMemcpyHtoD) memcpy_htod = nullptr;
  decltype(&::cuMemcpyDtoH) memcpy_dtoh = nullptr;
  decltype(&::cuMemsetD8) memset_d8 = nullptr;
  // For the autotuner: the disk key names the GPU and driver; timing with events; in-place
  // outputs zeroed or restored on the stream.
  decltype(&::cuDeviceGetName) device_get_name = nullptr;
  decltype(&::cuDriverGetVersion) driver_get_version = nullptr;
  decltype(&::cuEventCreate) event_create = nullptr;
  decltype(&::cuEventDestroy) event_destroy = nullptr;
  decltype(&::cuEventRecord) event_record = nullptr;
  decltype(&::cuEventSynchronize) event_synchronize = nullptr;
  decltype(&::cuEventElapsedTime) event_elapsed_time = nullptr;
  decltype(&::cuStreamSynchronize) stream_synchronize = nullptr;
  decltype(&::cuMemsetD8Async) memset_d8_async = nullptr;
  decltype(&::cuMemcpyDtoDAsync) memcpy_dtod_async = nullptr;
};

/// The loaded driver with its device and the device's primary context (shared with the
/// CUDA runtime API and PyTorch, so pointers and functions interoperate).
struct Driver {
  DriverApi api;
  CUdevice device = 0;
  CUcontext context = nullptr;
  int cc_major = 0, cc_minor = 0;
  int max_shared_optin = 0; ///< bytes of dynamic shared memory a block may opt into
};

/// The driver, initialized once per process; nullptr when unusable, with the reason in
/// `why` (never throws).
const Driver *try_driver(std::string *why = nullptr);

/// The driver, or throws tilec::Error saying why there is none.
const Driver &driver();

/// Makes the primary context current on this thread if no context is. The first call on a
/// thread checks; later calls are one thread-local load.
void ensure_context(const Driver &d);

/// Throws tilec::Error "<what>: CUDA_ERROR_X (description)" unless `r` is CUDA_SUCCESS.
void check(CUresult r, const std::string &what);

/// "CUDA_ERROR_X (description)" for a driver result.
std::string describe(CUresult r);

/// The device's architecture for NVRTC: "sm_80", "sm_90a" (arch-specific features on 9.0).
std::string device_arch(const Driver &d);

} // namespace tilec::detail
