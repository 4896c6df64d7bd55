// Kernel: the in-memory table of compiled specializations and the launch path.
//
// Specializations belong to a context (a function loaded in one cannot launch in another):
// each launch looks up the context current on the calling thread, so a process that drives
// several GPUs (cudaSetDevice per thread, PyTorch's device guards) launches on the device the
// caller chose. A second context of the same architecture loads the cubin the disk cache
// already holds; nothing is compiled twice.
//
// Launch fast path (a specialization already in memory): the current context (one driver
// query), one acquire load of an immutable table snapshot, a linear scan for key and context,
// and cuLaunchKernel; no lock, allocation, string or file system access. A miss compiles (AOT registry, disk cache,
// NVRTC) without holding the per-kernel mutex, so that the autotuner compiles several
// specializations of one kernel in parallel; a second thread that misses the same key waits
// for the first one's result. Then it publishes a new snapshot.
#include "aot_registry.h"
#include "autotune_internal.h"
#include "driver_api.h"
#include "name_expression.h"
#include "occupancy_step.h"
#include "profile_internal.h"
#include "spec_compiler.h"
#include "stats.h"

#include <tilec/runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <vector>

namespace tilec {
namespace {

constexpr size_t kDefaultSharedLimit = 48 * 1024; // more needs an explicit opt-in

/// The block a launch asks for: threads, and bytes of dynamic shared memory.
struct LaunchShape {
  int threads = 0;
  size_t shared_bytes = 0;
};

struct Spec {
  SpecKey key;
  const detail::DeviceContext *where = nullptr; ///< the context its module is loaded in
  std::string expr; ///< name expression, for error messages
  CUfunction fn = nullptr;
  CUmodule module = nullptr; ///< null for AOT kernels (owned by the CUDA runtime)
  std::atomic<bool> shared_opted_in{false};
  size_t max_dynamic_shared = 0; ///< set with the opt-in
  std::mutex optin_mutex;
  /// Blocks of this function one SM holds at once (persistent launches); 0: not asked yet,
  /// -1: unknown. A specialization's threads and shared memory are fixed by its key.
  std::atomic<int> blocks_per_sm{0};
};

/// Immutable once published; replaced, never modified.
struct Table {
  std::vector<Spec *> specs;
};

std::vector<std::string> split_flags(const std::string &s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string f; in >> f;)
    out.push_back(f);
  return out;
}

// The state of one Kernel. Lives in this file's namespace (not as the private
// Kernel::Impl) so the process-wide list of kernels can name it.
struct KernelState {
  std::string source_text, source_path, name, kinds;
  std::vector<std::string> extra_flags;

  std::atomic<const Table *> table{nullptr};
  std::mutex mutex;                           // guards everything below and extra_flags
  std::vector<std::unique_ptr<Table>> tables; // every snapshot ever published
  std::vector<std::unique_ptr<Spec>> specs;   // every spec ever created
  // (Key, context) pairs being compiled, with the result their compiling thread will publish.
  struct Pending {
    SpecKey key;
    const detail::DeviceContext *where;
    std::shared_future<Spec *> done;
  };
  std::vector<Pending> pending;

  Spec *find(const SpecKey &key, const detail::DeviceContext &where) const {
    const Table *t = table.load(std::memory_order_acquire);
    if (t)
      for (Spec *s : t->specs)
        if (s->where == &where && s->key == key)
          return s;
    return nullptr;
  }

  void publish(std::vector<Spec *> specs_now) {
    auto t = std::make_unique<Table>();
    t->specs = std::move(specs_now);
    table.store(t.get(), std::memory_order_release);
    tables.push_back(std::move(t)); // readers may still hold older snapshots
  }

  /// `first`: the block the first launch asks for (a specialization's is the same in every
  /// launch); zero threads when it is not known.
  Spec *compile(const Kernel &self, const SpecKey &key, const detail::DeviceContext &where,
                LaunchShape first = {});
  std::unique_ptr<Spec> build(const Kernel &self, const SpecKey &key,
                              const detail::DeviceContext &where,
                              const std::vector<std::string> &flags, LaunchShape first) const;
  void forget_all();
  void opt_in_shared(Spec &s, size_t bytes);
};

// Every live Kernel, so clear_memory_cache() can reach them.
struct KernelSet {
  std::mutex mutex;
  std::set<KernelState *> live;
};
KernelSet &kernels() {
  static KernelSet *k = new KernelSet; // never destroyed: static Kernels unregister at exit
  return *k;
}

} // namespace

struct Kernel::Impl : KernelState {};

Spec *KernelState::compile(const Kernel &self, const SpecKey &key,
                           const detail::DeviceContext &where, LaunchShape first) {
  std::promise<Spec *> result;
  std::shared_future<Spec *> other; // set when another thread is compiling it
  std::vector<std::string> flags;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (Spec *s = find(key, where)) // another thread compiled it meanwhile
      return s;
    for (const Pending &p : pending)
      if (p.where == &where && p.key == key)
        other = p.done;
    if (!other.valid()) {
      pending.push_back({key, &where, result.get_future().share()});
      flags = extra_flags;
    }
  }
  if (other.valid())
    return other.get(); // rethrows that thread's error
  // Under the mutex: `key` is no longer being compiled for `where`.
  auto unlist = [&] {
    for (size_t i = 0; i < pending.size(); ++i)
      if (pending[i].where == &where && pending[i].key == key) {
        pending.erase(pending.begin() + long(i));
        break;
      }
  };
  std::unique_ptr<Spec> spec;
  try {
    spec = build(self, key, where, flags, first);
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex);
    unlist();
    result.set_exception(std::current_exception());
    throw;
  }
  std::lock_guard<std::mutex> lock(mutex);
  const Table *t = table.load(std::memory_order_relaxed);
  std::vector<Spec *> now = t ? t->specs : std::vector<Spec *>{};
  now.push_back(spec.get());
  specs.push_back(std::move(spec));
  publish(std::move(now));
  unlist();
  result.set_value(specs.back().get());
  return specs.back().get();
}

/// Blocks of `threads` per SM for `fn` with `shared_bytes` of dynamic shared memory, or -1.
/// Above the default limit the query needs the function opted in first (it answers 0
/// otherwise); the launch opts it into the device's whole limit later.
static int blocks_per_sm(const detail::Driver &d, CUfunction fn, int threads,
                         size_t shared_bytes) {
  int static_bytes = 0, blocks = 0;
  if (d.api.func_get_attribute(&static_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn) !=
      CUDA_SUCCESS)
    return -1;
  if (shared_bytes + size_t(static_bytes) > kDefaultSharedLimit &&
      d.api.func_set_attribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               int(shared_bytes)) != CUDA_SUCCESS)
    return -1;
  return d.api.occupancy_blocks_per_sm(&blocks, fn, threads, shared_bytes) == CUDA_SUCCESS
             ? blocks
             : -1;
}

/// The occupancy step (occupancy_step.h): when `spec`'s registers alone hold back its blocks
/// per SM (with the launch's dynamic shared memory: where shared memory holds it back, fewer
/// registers gain nothing) and a build that leaves room for one more block reaches it spilling
/// at most a few registers, that build replaces it. Anything that fails keeps the build it has.
static void take_occupancy_step(const detail::CompileJob &job, const std::string &lowered_name,
                                Spec &spec, const detail::DeviceContext &where,
                                LaunchShape first) {
  const detail::Driver &d = detail::driver();
  if (!detail::occupancy_steps_enabled())
    return;
  // The launch's block, not CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: that is the largest
  // block the kernel's registers allow (384 for FLA's backward at 148 registers, launched with
  // 128), and at that size registers never look like the limit.
  const int threads = first.threads;
  const size_t shared_bytes = first.shared_bytes;
  int registers = 0, local = -1, blocks = 0;
  // TILEC_OCCUPANCY_STEP=print: what was read and decided, one line a specialization.
  auto say = [&](const std::string &decision) {
    if (detail::occupancy_steps_printed())
      std::fprintf(stderr,
                   "tilec: occupancy step, %s: %d registers, %d bytes local, %d blocks of %d "
                   "threads per SM (%zu bytes of dynamic shared memory): %s\n",
                   spec.expr.c_str(), registers, local, blocks, threads, shared_bytes,
                   decision.c_str());
  };
  if (threads <= 0)
    return say("not taken: compiled before any launch, so its block size is not known");
  if (!d.api.occupancy_blocks_per_sm)
    return say("not taken: the driver has no occupancy query");
  detail::SmLimits sm;
  int sm_threads = 0;
  if (d.api.func_get_attribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, spec.fn) != CUDA_SUCCESS ||
      d.api.func_get_attribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, spec.fn) != CUDA_SUCCESS ||
      (blocks = blocks_per_sm(d, spec.fn, threads, shared_bytes)) < 0 ||
      d.api.device_get_attribute(&sm.registers, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
                                 where.device) != CUDA_SUCCESS ||
      d.api.device_get_attribute(&sm_threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
                                 where.device) != CUDA_SUCCESS ||
      d.api.device_get_attribute(&sm.blocks, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
                                 where.device) != CUDA_SUCCESS)
    return say("not taken: a driver query failed");
  sm.warps = sm_threads / 32;
  const detail::OccupancyStep step = detail::next_occupancy_step(registers, threads, blocks, sm);
  if (local > 0) // a kernel that spills already is not squeezed further
    return say("not taken: it uses local memory already");
  if (!step.blocks)
    return say("none: registers do not limit it, it runs a quarter of the SM's warps already, or "
               "the next block is more than 15% away");
  detail::CompileJob again = job;
  again.extra_flags.push_back("-DTILEC_MIN_BLOCKS=" + std::to_string(step.blocks));
  detail::CompiledKernel c;
  try {
    c = detail::compile_cached(again, cache_dir());
  } catch (const Error &e) {
    return say(std::string("not taken: compiling for ") + std::to_string(step.blocks) +
               " blocks failed: " + e.what());
  }
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  if (d.api.module_load_data(&module, c.cubin.data()) != CUDA_SUCCESS)
    return say("not taken: the stepped cubin did not load");
  int spilled = -1, stepped = 0, stepped_registers = 0;
  if (d.api.module_get_function(&fn, module, lowered_name.c_str()) == CUDA_SUCCESS &&
      d.api.func_get_attribute(&spilled, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn) == CUDA_SUCCESS &&
      d.api.func_get_attribute(&stepped_registers, CU_FUNC_ATTRIBUTE_NUM_REGS, fn) ==
          CUDA_SUCCESS &&
      (stepped = blocks_per_sm(d, fn, threads, shared_bytes)) >= 0 &&
      detail::keeps_stepped_build(step, stepped, spilled)) {
    d.api.module_unload(spec.module);
    spec.module = module;
    spec.fn = fn;
    detail::bump(detail::counters().occupancy_steps);
    return say("taken: " + std::to_string(stepped) + " blocks at " +
               std::to_string(stepped_registers) + " registers, " + std::to_string(spilled) +
               " bytes local");
  }
  d.api.module_unload(module);
  say("not kept: the build for " + std::to_string(step.blocks) + " blocks reached " +
      std::to_string(stepped) + " at " + std::to_string(stepped_registers) + " registers with " +
      std::to_string(spilled) + " bytes local");
}

std::unique_ptr<Spec> KernelState::build(const Kernel &self, const SpecKey &key,
                                         const detail::DeviceContext &where,
                                         const std::vector<std::string> &flags,
                                         LaunchShape first) const {
  std::string expr = self.name_expression(key);
  const detail::Driver &d = detail::driver();
  detail::NvtxRange range("tilec: compile " + expr + " (" + where.arch + ")");

  auto spec = std::make_unique<Spec>();
  spec->key = key;
  spec->where = &where;
  spec->expr = expr;
  std::string aot_name;
  if (detail::AotResolver resolve = detail::find_aot_kernel(expr, &aot_name)) {
    spec->fn = static_cast<CUfunction>(resolve());
    if (!spec->fn)
      throw Error("tilec: the ahead-of-time kernel " + aot_name + " (for " + expr +
                  ") could not be resolved");
  } else {
    detail::CompileJob job;
    job.source = source_text;
    job.source_path = source_path;
    job.name_expression = expr;
    job.arch = where.arch;
    job.extra_flags = flags;
    detail::CompiledKernel c = detail::compile_cached(job, cache_dir());
    detail::check(d.api.module_load_data(&spec->module, c.cubin.data()),
                  "loading the cubin of " + expr + " (" + job.arch + ")");
    CUresult r = d.api.module_get_function(&spec->fn, spec->module, c.lowered_name.c_str());
    if (r != CUDA_SUCCESS) {
      d.api.module_unload(spec->module);
      detail::check(r, "finding " + expr + " (" + c.lowered_name + ") in its cubin");
    }
    take_occupancy_step(job, c.lowered_name, *spec, where, first);
  }
  return spec;
}

void KernelState::forget_all() {
  std::lock_guard<std::mutex> lock(mutex);
  const detail::Driver *d = detail::try_driver();
  for (auto &s : specs)
    if (s->module && d) {
      // In the module's own context. A context that cannot be made current is gone, and
      // its modules with it: nothing to unload. (Errors are ignored: the driver may be
      // shutting down.)
      if (d->api.ctx_push_current(s->where->context) == CUDA_SUCCESS) {
        d->api.module_unload(s->module);
        CUcontext popped = nullptr;
        d->api.ctx_pop_current(&popped);
      }
      s->module = nullptr;
    }
  // Spec objects stay allocated: a racing reader may still hold one from an old snapshot.
  publish({});
}

void KernelState::opt_in_shared(Spec &s, size_t bytes) {
  const detail::Driver &d = detail::driver();
  std::lock_guard<std::mutex> lock(s.optin_mutex);
  if (!s.shared_opted_in.load(std::memory_order_relaxed)) {
    // Opt into everything the device allows, once per function.
    int static_bytes = 0;
    detail::check(
        d.api.func_get_attribute(&static_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, s.fn),
        "querying the static shared memory of " + s.expr);
    size_t limit = size_t(std::max(0, s.where->max_shared_optin - static_bytes));
    detail::check(
        d.api.func_set_attribute(s.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(limit)),
        "opting " + s.expr + " into " + std::to_string(limit) + " bytes of dynamic shared memory");
    s.max_dynamic_shared = limit;
    s.shared_opted_in.store(true, std::memory_order_release);
  }
  if (bytes > s.max_dynamic_shared)
    throw Error("tilec: " + s.expr + " requests " + std::to_string(bytes) +
                " bytes of dynamic shared memory; the device allows at most " +
                std::to_string(s.max_dynamic_shared) + " beside its static shared memory");
}

Kernel::Kernel(const Source &source, const char *name, const char *template_kinds)
    : impl_(std::make_unique<Impl>()) {
  impl_->source_text = source.cuda ? source.cuda : "";
  impl_->source_path = source.path ? source.path : "";
  impl_->name = name ? name : "";
  impl_->kinds = template_kinds ? template_kinds : "";
  KernelSet &ks = kernels();
  std::lock_guard<std::mutex> lock(ks.mutex);
  ks.live.insert(impl_.get());
}

Kernel::~Kernel() {
  {
    KernelSet &ks = kernels();
    std::lock_guard<std::mutex> lock(ks.mutex);
    ks.live.erase(impl_.get());
  }
  impl_->forget_all();
}

void Kernel::set_compile_options(const CompileOptions &options) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->extra_flags = split_flags(options.extra_flags);
}

std::string Kernel::name_expression(const SpecKey &key) const {
  return detail::build_name_expression(impl_->name.c_str(), impl_->kinds.c_str(), key);
}

void *Kernel::function(const SpecKey &key) {
  const detail::DeviceContext &where = detail::current_device_context(detail::driver());
  Spec *s = impl_->find(key, where);
  if (!s)
    s = impl_->compile(*this, key, where);
  return s->fn;
}

/// TILEC_PERSISTENT=0 turns persistent launches off (to compare the two).
static bool persistent_launches_allowed() {
  static const bool allowed = [] {
    const char *v = std::getenv("TILEC_PERSISTENT");
    return !(v && std::string(v) == "0");
  }();
  return allowed;
}

void Kernel::launch(const SpecKey &key, Grid grid, int num_threads, size_t shared_bytes,
                    Stream stream, void **params, bool persistent) {
  Impl &k = *impl_;
  const detail::Driver &d = detail::driver();
  const detail::DeviceContext &where = detail::current_device_context(d);
  Spec *s = k.find(key, where);
  if (s)
    detail::bump(detail::counters().memory_hits);
  else
    s = k.compile(*this, key, where, {num_threads, shared_bytes});
  // Any dynamic shared memory opts in (once per function): with the static part it may pass
  // the default limit even when the dynamic part alone does not.
  if (shared_bytes > 0 &&
      (!s->shared_opted_in.load(std::memory_order_acquire) || shared_bytes > s->max_dynamic_shared))
    k.opt_in_shared(*s, shared_bytes);
  if (persistent && grid.y == 1 && grid.z == 1 && persistent_launches_allowed()) {
    int per_sm = s->blocks_per_sm.load(std::memory_order_relaxed);
    if (per_sm == 0) {
      per_sm = -1;
      int n = 0;
      if (d.api.occupancy_blocks_per_sm &&
          d.api.occupancy_blocks_per_sm(&n, s->fn, num_threads, shared_bytes) == CUDA_SUCCESS &&
          n > 0)
        per_sm = n;
      s->blocks_per_sm.store(per_sm, std::memory_order_relaxed);
    }
    uint32_t at_once = per_sm > 0 ? uint32_t(per_sm) * uint32_t(where.sm_count) : 0;
    if (at_once > 0 && at_once < grid.x) {
      grid.x = at_once;
      detail::bump(detail::counters().persistent_launches);
    }
  }
  detail::LaunchProbe probe(s->expr, where, s->fn, static_cast<CUstream>(stream));
  CUresult r =
      d.api.launch_kernel(s->fn, grid.x, grid.y, grid.z, unsigned(num_threads), 1, 1,
                          unsigned(shared_bytes), static_cast<CUstream>(stream), params, nullptr);
  probe.launched(r);
  if (r != CUDA_SUCCESS)
    throw Error("tilec: launching " + s->expr + " (grid " + std::to_string(grid.x) + "x" +
                std::to_string(grid.y) + "x" + std::to_string(grid.z) + ", " +
                std::to_string(num_threads) + " threads, " + std::to_string(shared_bytes) +
                " bytes of dynamic shared memory) failed: " + detail::describe(r) +
                (r == CUDA_ERROR_INVALID_VALUE
                     ? " (a kernel compiled by the runtime with __launch_bounds__(N) runs in "
                       "blocks of exactly N threads)"
                     : ""));
}

void clear_memory_cache() {
  {
    KernelSet &ks = kernels();
    std::lock_guard<std::mutex> lock(ks.mutex);
    for (KernelState *k : ks.live)
      k->forget_all();
  }
  detail::clear_autotune_choices();
}

} // namespace tilec
