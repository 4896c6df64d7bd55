// Autotuner: the in-memory table of choices, and a tuning: prune, compile in parallel, time
// each config, keep the fastest in memory and on disk.
#include "autotune_internal.h"
#include "autotune_record.h"
#include "disk_cache.h"
#include "hash.h"
#include "stats.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>
#include <unordered_map>

namespace tilec {
namespace {

using Clock = std::chrono::steady_clock;

constexpr unsigned kMaxCompileThreads = 8; // NVRTC compiles take memory; more rarely helps

bool print_enabled() {
  const char *e = std::getenv("TILEC_PRINT_AUTOTUNING");
  return e && *e && std::strcmp(e, "0") != 0;
}

std::string first_line(const std::string &s) { return s.substr(0, s.find('\n')); }

std::string ms_text(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f ms", ms);
  return buf;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

} // namespace

struct Autotuner::Impl {
  TuningSpec spec;
  detail::Hash128 source_hash;
  mutable std::mutex mutex;                                     // guards `chosen`
  std::unordered_map<SpecKey, int, detail::SpecKeyHash> chosen; // key -> index into configs
  std::mutex tune_mutex;                                        // one tuning at a time
  TuneBackend *backend = nullptr;
  std::function<void(const std::string &)> log;

  void say(const std::string &line) const {
    if (log)
      log(line);
    else
      std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::string config_text(int i, const Config &c) const {
    return "config " + std::to_string(i + 1) + " of " + std::to_string(spec.configs.size()) + " (" +
           c.str() + ")";
  }
  TuneBackend &backend_now() const { return backend ? *backend : gpu_tune_backend(); }
  /// `key` with the device context it is chosen for.
  SpecKey here(const SpecKey &key) const {
    SpecKey k = key;
    k.push(backend_now().device_token());
    return k;
  }
  const Config *lookup(const SpecKey &key) const {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = chosen.find(key);
    return it == chosen.end() ? nullptr : &spec.configs[size_t(it->second)];
  }
  const Config &remember(const SpecKey &key, int index) {
    std::lock_guard<std::mutex> lock(mutex);
    chosen[key] = index;
    return spec.configs[size_t(index)];
  }
  detail::Hash128 disk_key(const std::string &device, const std::string &key_text) const;
  int from_disk(const std::string &dir, const detail::Hash128 &dk, const std::string &key_text);
  int measure(TuneBackend &b, const std::string &key_text, const Tuning &how, double &best_ms);
  int decide_close_race(TuneBackend &b, const Tuning &how, const std::vector<Config> &full,
                        const std::vector<double> &first_ms, const std::function<void()> &prepare,
                        int best, double &best_ms, bool print, const std::string &who);
};

namespace {

// Every live Autotuner, so clear_memory_cache() can reach them.
struct Registry {
  std::mutex mutex;
  std::set<Autotuner::Impl *> live;
};
Registry &registry() {
  static Registry *r = new Registry; // never destroyed: static Autotuners unregister at exit
  return *r;
}

// Runs how.compile for each config in `todo` on up to kMaxCompileThreads threads; a failure is
// recorded in errors[i].
void compile_all(const Tuning &how, const std::vector<Config> &full, const std::vector<int> &todo,
                 std::vector<std::string> &errors) {
  if (!how.compile || todo.empty())
    return;
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t j; (j = next.fetch_add(1)) < todo.size();) {
      const int i = todo[j];
      try {
        how.compile(full[size_t(i)]);
      } catch (const std::exception &e) {
        errors[size_t(i)] = e.what();
      } catch (...) {
        errors[size_t(i)] = "unknown error";
      }
    }
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t helpers = std::min<size_t>(std::min(cores, kMaxCompileThreads), todo.size()) - 1;
  std::vector<std::thread> threads;
  try {
    for (size_t t = 0; t < helpers; ++t)
      threads.emplace_back(work);
  } catch (const std::system_error &) {
    // No more threads: the ones started and this one share the work.
  }
  work();
  for (auto &t : threads)
    t.join();
}

// Copies of the restore_value buffers, released (after the stream drains) on every path.
struct SavedBuffers {
  TuneBackend &b;
  Stream stream;
  std::vector<void *> copies;
  ~SavedBuffers() {
    for (void *c : copies)
      if (c)
        b.release(stream, c);
  }
};

} // namespace

detail::Hash128 Autotuner::Impl::disk_key(const std::string &device,
                                          const std::string &key_text) const {
  detail::Hasher h;
  h.feed("tilec autotune").feed_u64(detail::kTuneRecordVersion).feed(detail::tilec_version());
  h.feed(device);
  h.feed_u64(source_hash.hi).feed_u64(source_hash.lo).feed(spec.kernel);
  for (const Config &c : spec.configs) // other configs may have another winner
    h.feed(c.str());
  return h.feed(key_text).finish();
}

int Autotuner::Impl::from_disk(const std::string &dir, const detail::Hash128 &dk,
                               const std::string &key_text) {
  detail::TuneRecord r;
  switch (detail::load_tune_record(dir, dk, source_hash, r)) {
  case detail::RecordLookup::Miss:
    return -1;
  case detail::RecordLookup::Rejected:
    detail::bump(detail::counters().autotune_disk_rejected);
    return -1;
  case detail::RecordLookup::Hit:
    break;
  }
  if (r.kernel == spec.kernel && r.key == key_text)
    for (size_t i = 0; i < spec.configs.size(); ++i)
      if (spec.configs[i].str() == r.choice) {
        detail::bump(detail::counters().autotune_disk_hits);
        if (print_enabled())
          say("tilec: autotuning " + std::string(spec.kernel) + " for " + key_text + ": " +
              config_text(int(i), spec.configs[i]) + " from the disk cache (" + ms_text(r.ms) +
              " when tuned)");
        return int(i);
      }
  detail::bump(detail::counters().autotune_disk_rejected); // a hash collision or a stale file
  return -1;
}

int Autotuner::Impl::decide_close_race(TuneBackend &b, const Tuning &how,
                                       const std::vector<Config> &full,
                                       const std::vector<double> &first_ms,
                                       const std::function<void()> &prepare, int best,
                                       double &best_ms, bool print, const std::string &who) {
  // One timing of a config can be off by several percent, and not at random: a GPU heats up
  // while it is tuned and its clocks fall, so whatever is timed later looks slower (on an
  // H200, a 128x128x64 matmul config timed 2.05 ms in the first pass and 2.69 ms right after
  // it). Configs within kCloseRace of the fastest are timed again in kRounds interleaved
  // rounds, each in the opposite order to the one before, so that the drift falls on every
  // finalist alike; the median of each finalist's timings (the first pass's included) decides.
  constexpr double kCloseRace = 0.10;
  constexpr int kRounds = 3;
  std::vector<int> finalists;
  for (size_t i = first_ms.size(); i-- > 0;)
    if (first_ms[i] <= best_ms * (1 + kCloseRace))
      finalists.push_back(int(i));
  if (finalists.size() < 2)
    return best;
  std::vector<std::vector<double>> samples(first_ms.size());
  for (int i : finalists)
    samples[size_t(i)].push_back(first_ms[size_t(i)]);
  for (int round = 0; round < kRounds; ++round) {
    for (size_t j = 0; j < finalists.size(); ++j) {
      const int i = finalists[round % 2 == 0 ? j : finalists.size() - 1 - j];
      if (samples[size_t(i)].empty())
        continue; // failed in an earlier round
      try {
        const Config &c = full[size_t(i)];
        const double ms = b.time_ms(how.stream, prepare, [&] { how.launch(c); },
                                    spec.warmup_ms / 2, spec.rep_ms / 2);
        samples[size_t(i)].push_back(ms);
        if (print)
          say(who + ": " + config_text(i, c) + ": round " + std::to_string(round + 1) + " " +
              ms_text(ms));
      } catch (const std::exception &) {
        // It ran in the first pass: keep it out of the race rather than fail the tuning.
        samples[size_t(i)].clear();
      }
    }
  }
  double best_median = std::numeric_limits<double>::infinity();
  for (int i : finalists) {
    std::vector<double> &v = samples[size_t(i)];
    if (v.empty())
      continue;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    if (print)
      say(who + ": " + config_text(i, full[size_t(i)]) + ": median " + ms_text(median));
    if (median < best_median) {
      best_median = median;
      best = i;
    }
  }
  if (best_median < std::numeric_limits<double>::infinity())
    best_ms = best_median;
  return best;
}

int Autotuner::Impl::measure(TuneBackend &b, const std::string &key_text, const Tuning &how,
                             double &best_ms) {
  const auto start = Clock::now();
  const bool print = print_enabled();
  const std::string who = "tilec: autotuning " + std::string(spec.kernel);
  const size_t n = spec.configs.size();
  if (print)
    say(who + " for " + key_text + ": " + std::to_string(n) + " configs");

  // The heuristics and the prune hook see each config with the arguments of this call.
  std::vector<Config> full(spec.configs);
  std::vector<std::string> errors(n);
  std::vector<bool> pruned(n, false);
  std::vector<int> todo;
  for (size_t i = 0; i < n; ++i) {
    try {
      if (how.complete)
        full[i] = how.complete(spec.configs[i]);
      pruned[i] = how.keep && !how.keep(full[i]);
    } catch (const std::exception &e) {
      errors[i] = e.what();
    }
    if (!pruned[i] && errors[i].empty())
      todo.push_back(int(i));
  }
  if (todo.empty() && std::find(pruned.begin(), pruned.end(), false) == pruned.end())
    throw Error(who + " for " + key_text + ": the prune hook kept none of the " +
                std::to_string(n) + " configs");

  compile_all(how, full, todo, errors);
  const double compile_s = seconds_since(start);

  SavedBuffers saved{b, how.stream, {}};
  for (const TunedBuffer &buf : how.buffers)
    saved.copies.push_back(buf.zero ? nullptr : b.save(how.stream, buf.ptr, buf.bytes));
  auto prepare = [&] {
    for (size_t i = 0; i < how.buffers.size(); ++i) {
      const TunedBuffer &buf = how.buffers[i];
      if (buf.zero)
        b.zero(how.stream, buf.ptr, buf.bytes);
      else
        b.restore(how.stream, buf.ptr, saved.copies[i], buf.bytes);
    }
  };

  int best = -1;
  best_ms = std::numeric_limits<double>::infinity();
  std::vector<double> first_ms(n, std::numeric_limits<double>::infinity());
  for (size_t i = 0; i < n; ++i) {
    if (pruned[i]) {
      if (print)
        say(who + ": " + config_text(int(i), full[i]) + ": pruned");
      continue;
    }
    if (errors[i].empty()) {
      try {
        const Config &c = full[i];
        double ms =
            b.time_ms(how.stream, prepare, [&] { how.launch(c); }, spec.warmup_ms, spec.rep_ms);
        if (print)
          say(who + ": " + config_text(int(i), c) + ": " + ms_text(ms));
        first_ms[i] = ms;
        if (ms < best_ms) {
          best_ms = ms;
          best = int(i);
        }
        continue;
      } catch (const std::exception &e) {
        errors[i] = e.what();
      }
    }
    // Always shown: a config that cannot run is worth knowing about.
    std::string why = print ? errors[i] : first_line(errors[i]);
    if (!print && why != errors[i])
      why += " (TILEC_PRINT_AUTOTUNING=1 shows the whole message)";
    say(who + ": " + config_text(int(i), full[i]) + " skipped: " + why);
  }
  if (best >= 0)
    best = decide_close_race(b, how, full, first_ms, prepare, best, best_ms, print, who);
  prepare(); // the launch that follows sees the buffers as the caller left them
  if (best < 0)
    throw Error(who + " for " + key_text + ": no config could run (see the messages above)");
  detail::bump(detail::counters().autotunings);
  if (print)
    say(who + " for " + key_text + ": chose " + config_text(best, full[size_t(best)]) + ", " +
        ms_text(best_ms) + "; tuning took " + seconds_text(seconds_since(start)) + " (compiling " +
        seconds_text(compile_s) + ")");
  return best;
}

Autotuner::Autotuner(const Source &source, TuningSpec spec) : impl_(std::make_unique<Impl>()) {
  if (spec.configs.empty())
    spec.configs.push_back(Config{}); // heuristics only: one default config
  impl_->spec = std::move(spec);
  const char *text = source.cuda ? source.cuda : "";
  impl_->source_hash = detail::hash_bytes(text, std::strlen(text));
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.live.insert(impl_.get());
}

Autotuner::~Autotuner() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.live.erase(impl_.get());
}

const Config *Autotuner::find(const SpecKey &key) const {
  return impl_->lookup(impl_->here(key));
}

const Config &Autotuner::tune(const SpecKey &key_alone, const Tuning &how) {
  Impl &t = *impl_;
  const SpecKey key = t.here(key_alone);
  std::lock_guard<std::mutex> lock(t.tune_mutex);
  if (const Config *c = t.lookup(key)) // another thread tuned it meanwhile
    return *c;
  if (t.spec.configs.size() == 1) // nothing to choose between (Triton does not time either)
    return t.remember(key, 0);
  TuneBackend &b = t.backend_now();
  const std::string key_text = detail::describe_tuning_key(t.spec, key_alone);
  const detail::Hash128 dk = t.disk_key(b.device_id(), key_text);
  const std::string dir = cache_dir();
  int index = t.from_disk(dir, dk, key_text);
  if (index >= 0)
    return t.remember(key, index);
  double ms = 0;
  index = t.measure(b, key_text, how, ms);
  detail::store_tune_record(dir, dk,
                            {t.spec.kernel, key_text, t.spec.configs[size_t(index)].str(), ms,
                             detail::tilec_version(), t.source_hash});
  return t.remember(key, index);
}

void Autotuner::set_backend(TuneBackend *backend) { impl_->backend = backend; }

void Autotuner::set_log(std::function<void(const std::string &)> sink) {
  impl_->log = std::move(sink);
}

namespace detail {
void clear_autotune_choices() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (Autotuner::Impl *t : r.live) {
    std::lock_guard<std::mutex> inner(t->mutex);
    t->chosen.clear();
  }
}
} // namespace detail

} // namespace tilec
