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
  decltype(&::cuCtxPushCurrent) ctx_push_current = nullptr;
  decltype(&::cuCtxPopCurrent) ctx_pop_current = nullptr;
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
  decltype(&::cuEventQuery) event_query = nullptr;
  decltype(&::cuEventElapsedTime) event_elapsed_time = nullptr;
  decltype(&::cuStreamSynchronize) stream_synchronize = nullptr;
  decltype(&::cuMemsetD8Async) memset_d8_async = nullptr;
  decltype(&::cuMemcpyDtoDAsync) memcpy_dtod_async = nullptr;
  // Tensor maps for the copy engine (TMA); null on drivers before CUDA 12.
  decltype(&::cuTensorMapEncodeTiled) tensor_map_encode_tiled = nullptr;
  // Blocks per SM, for persistent launches; null where missing (they launch every block).
  decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor) occupancy_blocks_per_sm = nullptr;
};

/// The loaded driver with its first device and that device's primary context (shared with
/// the CUDA runtime API and PyTorch, so pointers and functions interoperate): the context made
/// current on a thread that has none.
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

/// A context kernels run in, and what its device allows. Modules, functions, shared-memory
/// opt-ins and autotuning choices belong to one context (functions loaded in one cannot be
/// launched in another); cubins belong to an architecture and are shared.
struct DeviceContext {
  CUcontext context = nullptr;
  CUdevice device = 0;
  int cc_major = 0, cc_minor = 0;
  int max_shared_optin = 0; ///< bytes of dynamic shared memory a block may opt into
  int sm_count = 0;
  std::string name; ///< the GPU's name (a MIG slice's includes its profile)
  std::string arch; ///< for NVRTC: "sm_80", "sm_90a"
};

/// The context current on the calling thread (cudaSetDevice, PyTorch's device guard, a
/// context the caller made), described once per context; when the thread has none, the
/// driver's primary context is made current first. The usual call is one driver query and a
/// thread-local comparison. Throws tilec::Error when the context's device cannot be queried.
const DeviceContext &current_device_context(const Driver &d);

/// Makes the primary context current on this thread if no context is.
void ensure_context(const Driver &d);

/// Throws tilec::Error "<what>: CUDA_ERROR_X (description)" unless `r` is CUDA_SUCCESS.
void check(CUresult r, const std::string &what);

/// "CUDA_ERROR_X (description)" for a driver result.
std::string describe(CUresult r);

/// The device's architecture for NVRTC: "sm_80", "sm_90a" (arch-specific features on 9.0).
std::string device_arch(const Driver &d);
std::string device_arch(int cc_major, int cc_minor);

} // namespace tilec::detail
