#include "driver_api.h"

#include <tilec/runtime.h>

#include <dlfcn.h>

#include <initializer_list>
#include <memory>
#include <mutex>
#include <vector>

namespace tilec::detail {
namespace {

struct LoadResult {
  Driver driver;
  bool ok = false;
  std::string why;
};

template <class F> bool resolve(void *lib, const char *symbol, F &out, std::string &why) {
  out = reinterpret_cast<F>(dlsym(lib, symbol));
  if (!out)
    why = std::string("libcuda.so.1 lacks ") + symbol;
  return out != nullptr;
}

// The first of `symbols` that libcuda has (a newer version first, then its fallback).
template <class F>
bool resolve_first(void *lib, std::initializer_list<const char *> symbols, F &out,
                   std::string &why) {
  for (const char *symbol : symbols)
    if ((out = reinterpret_cast<F>(dlsym(lib, symbol))))
      return true;
  why = std::string("libcuda.so.1 lacks ") + *symbols.begin();
  return false;
}

// A symbol only some drivers have (null when absent): what needs it is skipped, not failed.
template <class F> bool resolve_optional(void *lib, const char *symbol, F &out) {
  out = reinterpret_cast<F>(dlsym(lib, symbol));
  return true;
}

std::string result_text(const DriverApi &api, CUresult r) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (api.get_error_name)
    api.get_error_name(r, &name);
  if (api.get_error_string)
    api.get_error_string(r, &text);
  std::string s = name ? name : "CUDA error " + std::to_string(int(r));
  if (text)
    s += std::string(" (") + text + ")";
  return s;
}

bool load_symbols(void *lib, DriverApi &a, std::string &why) {
  // Versioned symbols spelled out: dlsym does not see <cuda.h>'s #defines.
  return resolve(lib, "cuInit", a.init, why) &&
         resolve(lib, "cuGetErrorName", a.get_error_name, why) &&
         resolve(lib, "cuGetErrorString", a.get_error_string, why) &&
         resolve(lib, "cuDeviceGetCount", a.device_get_count, why) &&
         resolve(lib, "cuDeviceGet", a.device_get, why) &&
         resolve(lib, "cuDeviceGetAttribute", a.device_get_attribute, why) &&
         resolve(lib, "cuDevicePrimaryCtxRetain", a.primary_ctx_retain, why) &&
         resolve(lib, "cuCtxGetCurrent", a.ctx_get_current, why) &&
         resolve(lib, "cuCtxSetCurrent", a.ctx_set_current, why) &&
         resolve(lib, "cuCtxGetDevice", a.ctx_get_device, why) &&
         resolve(lib, "cuCtxSynchronize", a.ctx_synchronize, why) &&
         resolve_first(lib, {"cuCtxPushCurrent_v2", "cuCtxPushCurrent"}, a.ctx_push_current, why) &&
         resolve_first(lib, {"cuCtxPopCurrent_v2", "cuCtxPopCurrent"}, a.ctx_pop_current, why) &&
         resolve(lib, "cuModuleLoadData", a.module_load_data, why) &&
         resolve(lib, "cuModuleGetFunction", a.module_get_function, why) &&
         resolve(lib, "cuModuleUnload", a.module_unload, why) &&
         resolve(lib, "cuFuncSetAttribute", a.func_set_attribute, why) &&
         resolve(lib, "cuFuncGetAttribute", a.func_get_attribute, why) &&
         resolve(lib, "cuLaunchKernel", a.launch_kernel, why) &&
         resolve(lib, "cuMemAlloc_v2", a.mem_alloc, why) &&
         resolve(lib, "cuMemFree_v2", a.mem_free, why) &&
         resolve(lib, "cuMemcpyHtoD_v2", a.memcpy_htod, why) &&
         resolve(lib, "cuMemcpyDtoH_v2", a.memcpy_dtoh, why) &&
         resolve(lib, "cuMemsetD8_v2", a.memset_d8, why) &&
         resolve(lib, "cuDeviceGetName", a.device_get_name, why) &&
         resolve(lib, "cuDriverGetVersion", a.driver_get_version, why) &&
         resolve(lib, "cuEventCreate", a.event_create, why) &&
         resolve(lib, "cuEventDestroy_v2", a.event_destroy, why) &&
         resolve(lib, "cuEventRecord", a.event_record, why) &&
         resolve(lib, "cuEventSynchronize", a.event_synchronize, why) &&
         resolve(lib, "cuEventQuery", a.event_query, why) &&
         resolve_first(lib, {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, a.event_elapsed_time,
                       why) &&
         resolve(lib, "cuStreamSynchronize", a.stream_synchronize, why) &&
         resolve(lib, "cuMemsetD8Async", a.memset_d8_async, why) &&
         resolve(lib, "cuMemcpyDtoDAsync_v2", a.memcpy_dtod_async, why) &&
         resolve_optional(lib, "cuTensorMapEncodeTiled", a.tensor_map_encode_tiled) &&
         resolve_optional(lib, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
                          a.occupancy_blocks_per_sm);
}

LoadResult load() {
  LoadResult r;
  // Never dlclose: function pointers and modules live until the process exits.
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *err = dlerror();
    r.why = std::string("libcuda.so.1 not found (no CUDA driver): ") + (err ? err : "");
    return r;
  }
  DriverApi &a = r.driver.api;
  if (!load_symbols(lib, a, r.why))
    return r;
  CUresult res = a.init(0);
  if (res == CUDA_ERROR_STUB_LIBRARY) {
    r.why = "libcuda.so.1 is the toolkit's stub library, not a CUDA driver";
    return r;
  }
  if (res == CUDA_ERROR_NO_DEVICE) {
    r.why = "no CUDA device";
    return r;
  }
  if (res != CUDA_SUCCESS) {
    r.why = "cuInit failed: " + result_text(a, res);
    return r;
  }
  int count = 0;
  res = a.device_get_count(&count);
  if (res != CUDA_SUCCESS || count == 0) {
    r.why = res != CUDA_SUCCESS ? "cuDeviceGetCount failed: " + result_text(a, res)
                                : std::string("no CUDA device");
    return r;
  }
  // Follow a context the caller already made current (cudaSetDevice, PyTorch); else device 0.
  CUcontext current = nullptr;
  CUdevice dev = 0;
  if (a.ctx_get_current(&current) == CUDA_SUCCESS && current &&
      a.ctx_get_device(&dev) == CUDA_SUCCESS) {
    r.driver.device = dev;
  } else if ((res = a.device_get(&dev, 0)) != CUDA_SUCCESS) {
    r.why = "cuDeviceGet failed: " + result_text(a, res);
    return r;
  }
  r.driver.device = dev;
  if ((res = a.primary_ctx_retain(&r.driver.context, dev)) != CUDA_SUCCESS) {
    r.why = "cuDevicePrimaryCtxRetain failed: " + result_text(a, res);
    return r;
  }
  struct {
    int *out;
    CUdevice_attribute attr;
  } attrs[] = {{&r.driver.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
               {&r.driver.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
               {&r.driver.max_shared_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN}};
  for (const auto &q : attrs)
    if ((res = a.device_get_attribute(q.out, q.attr, dev)) != CUDA_SUCCESS) {
      r.why = "cuDeviceGetAttribute failed: " + result_text(a, res);
      return r;
    }
  r.ok = true;
  return r;
}

const LoadResult &loaded() {
  // Thread-safe one-time initialization; never destroyed, so Kernel destructors that run
  // during static destruction can still ask for the driver.
  static const LoadResult *r = new LoadResult(load());
  return *r;
}

} // namespace

const Driver *try_driver(std::string *why) {
  const LoadResult &r = loaded();
  if (!r.ok && why)
    *why = r.why;
  return r.ok ? &r.driver : nullptr;
}

const Driver &driver() {
  const LoadResult &r = loaded();
  if (!r.ok)
    throw Error("tilec: cannot use the GPU: " + r.why);
  return r.driver;
}

void ensure_context(const Driver &d) {
  CUcontext current = nullptr;
  check(d.api.ctx_get_current(&current), "cuCtxGetCurrent");
  if (!current)
    check(d.api.ctx_set_current(d.context), "cuCtxSetCurrent");
}

namespace {

// Every context seen, described once; entries are never removed (a few per process), so the
// references handed out stay valid.
struct ContextTable {
  std::mutex mutex;
  std::vector<std::unique_ptr<DeviceContext>> known;
};

const DeviceContext &describe_context(const Driver &d, CUcontext ctx) {
  static ContextTable *table = new ContextTable; // never destroyed, as the driver
  std::lock_guard<std::mutex> lock(table->mutex);
  for (const auto &c : table->known)
    if (c->context == ctx)
      return *c;
  auto c = std::make_unique<DeviceContext>();
  c->context = ctx;
  check(d.api.ctx_get_device(&c->device), "cuCtxGetDevice");
  struct {
    int *out;
    CUdevice_attribute attr;
  } attrs[] = {{&c->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
               {&c->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
               {&c->max_shared_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
               {&c->sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT}};
  for (const auto &q : attrs)
    check(d.api.device_get_attribute(q.out, q.attr, c->device), "cuDeviceGetAttribute");
  char name[256] = {};
  check(d.api.device_get_name(name, int(sizeof name) - 1, c->device), "cuDeviceGetName");
  c->name = name;
  c->arch = device_arch(c->cc_major, c->cc_minor);
  table->known.push_back(std::move(c));
  return *table->known.back();
}

} // namespace

const DeviceContext &current_device_context(const Driver &d) {
  thread_local const DeviceContext *last = nullptr;
  CUcontext current = nullptr;
  check(d.api.ctx_get_current(&current), "cuCtxGetCurrent");
  if (!current) {
    check(d.api.ctx_set_current(d.context), "cuCtxSetCurrent");
    current = d.context;
  }
  if (!last || last->context != current)
    last = &describe_context(d, current);
  return *last;
}

std::string describe(CUresult r) {
  const LoadResult &l = loaded();
  return result_text(l.driver.api, r);
}

void check(CUresult r, const std::string &what) {
  if (r != CUDA_SUCCESS)
    throw Error("tilec: " + what + ": " + describe(r));
}

std::string device_arch(int cc_major, int cc_minor) {
  std::string arch = "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
  if (cc_major == 9 && cc_minor == 0)
    arch += "a"; // wgmma, setmaxnreg
  return arch;
}

std::string device_arch(const Driver &d) { return device_arch(d.cc_major, d.cc_minor); }

} // namespace tilec::detail

namespace tilec {
bool gpu_available(std::string *why) { return detail::try_driver(why) != nullptr; }
} // namespace tilec
