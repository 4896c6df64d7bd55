// The autotuner without a GPU: a fake backend times launches with numbers the test chooses.
// Choice of the fastest, the in-memory and disk caches, corrupt records, pruning, failing
// configs, heuristics, in-place buffers, parallel compiles and the printed lines.
#include "autotune_fake.h"
#include "autotune_record.h"
#include "test_env.h"

#include <tilec/autotune.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include <sys/stat.h>

namespace fs = std::filesystem;

namespace {

const tilec::Source kSource = {"fake.cu", "// a kernel that never compiles: the backend is fake"};

tilec::TuningSpec spec_of(std::vector<tilec::Config> configs) {
  tilec::TuningSpec spec;
  spec.kernel = "k";
  spec.configs = std::move(configs);
  spec.key_names = {"T", "DIV16", "n"};
  spec.key_kinds = "tmi";
  return spec;
}

tilec::TuningSpec three_blocks() {
  return spec_of({tilec::Config({{"BLOCK", 32}}, 4, 3), tilec::Config({{"BLOCK", 64}}, 4, 3),
                  tilec::Config({{"BLOCK", 128}}, 8, 2)});
}

tilec::SpecKey key_for(int64_t n) {
  tilec::SpecKey key;
  key.push(tilec::type_id<float>());
  key.push(3); // DIV16
  key.push(n);
  return key;
}

// A tuner on the fake backend that keeps its messages; times are chosen by BLOCK.
struct Harness {
  tilec_test::FakeBackend backend;
  std::map<int64_t, double> ms = {{32, 3.0}, {64, 1.0}, {128, 2.0}};
  std::vector<std::string> log;
  std::vector<int64_t> compiled, launched;
  std::mutex mutex; // compiles run on several threads
  tilec::Tuning how;

  Harness() {
    how.compile = [this](const tilec::Config &c) {
      std::lock_guard<std::mutex> lock(mutex);
      compiled.push_back(c["BLOCK"]);
    };
    how.launch = [this](const tilec::Config &c) {
      launched.push_back(c["BLOCK"]);
      backend.next_ms = ms.at(c["BLOCK"]);
    };
  }
  void attach(tilec::Autotuner &t) {
    t.set_backend(&backend);
    t.set_log([this](const std::string &line) { log.push_back(line); });
  }
};

struct ScopedEnv {
  explicit ScopedEnv(const char *value) { setenv("TILEC_PRINT_AUTOTUNING", value, 1); }
  ~ScopedEnv() { unsetenv("TILEC_PRINT_AUTOTUNING"); }
};

std::string record_file(const std::string &dir) {
  for (auto &e : fs::directory_iterator(dir))
    if (e.path().extension() == ".autotune")
      return e.path().string();
  return "";
}

} // namespace

TEST(Autotune, ChoosesTheFastestConfig) {
  tilec_test::ScopedCacheDir dir;
  Harness h;
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  EXPECT_EQ(tuner.find(key_for(1000)), nullptr);
  const tilec::Config &c = tuner.tune(key_for(1000), h.how);
  EXPECT_EQ(c["BLOCK"], 64);
  EXPECT_EQ(tuner.find(key_for(1000)), &c);
  EXPECT_EQ(h.backend.timings, 3);
  EXPECT_EQ(h.compiled.size(), 3u);
  EXPECT_TRUE(h.log.empty()) << h.log[0]; // quiet unless TILEC_PRINT_AUTOTUNING is set
}

// A first timing that flatters a config (32 here, by 5%) is not the last word: configs within
// 10% of the fastest are timed again in three interleaved rounds, each in the opposite order
// to the one before (a GPU's clocks drift while it is tuned), and the median decides.
TEST(Autotune, CloseRaceIsTimedAgainInInterleavedRounds) {
  tilec_test::ScopedCacheDir dir;
  Harness h;
  // Per timing, in order: 32, 64, 128 (first pass), then rounds 64 32 | 32 64 | 64 32.
  const std::vector<double> sequence = {1.0, 1.05, 2.0, 1.05, 1.3, 1.3, 1.0, 1.0, 1.2};
  std::vector<int> timed; // the config of each timing
  h.how.launch = [&](const tilec::Config &c) {
    h.backend.next_ms = sequence.at(size_t(h.backend.timings - 1));
    if (timed.size() < size_t(h.backend.timings))
      timed.push_back(c["BLOCK"]);
  };
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  EXPECT_EQ(tuner.tune(key_for(1000), h.how)["BLOCK"], 64); // medians 1.025 against 1.25
  EXPECT_EQ(h.backend.timings, 9); // 128 (twice as slow) is not timed again
  EXPECT_EQ(timed, (std::vector<int>{32, 64, 128, 64, 32, 32, 64, 64, 32}));
}

// A finalist that fails in a later round leaves the race; the tuning still succeeds.
TEST(Autotune, FinalistThatFailsLaterLeavesTheRace) {
  tilec_test::ScopedCacheDir dir;
  Harness h;
  h.ms = {{32, 1.0}, {64, 1.02}, {128, 2.0}};
  int launches_of_32 = 0;
  h.how.launch = [&](const tilec::Config &c) {
    if (c["BLOCK"] == 32 && ++launches_of_32 > 3) // fine in the first pass only
      throw std::runtime_error("launch failed");
    h.backend.next_ms = h.ms.at(c["BLOCK"]);
  };
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  EXPECT_EQ(tuner.tune(key_for(1000), h.how)["BLOCK"], 64);
}

TEST(Autotune, SecondCallHitsMemoryAndOtherKeysTuneAgain) {
  tilec_test::ScopedCacheDir dir;
  Harness h;
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  tuner.tune(key_for(1000), h.how);
  const int timings = h.backend.timings;
  EXPECT_EQ(tuner.tune(key_for(1000), h.how)["BLOCK"], 64);
  EXPECT_EQ(h.backend.timings, timings);

  h.ms = {{32, 0.5}, {64, 1.0}, {128, 2.0}}; // another key value, another winner
  EXPECT_EQ(tuner.tune(key_for(4096), h.how)["BLOCK"], 32);
  EXPECT_EQ(tuner.find(key_for(1000))->get("BLOCK"), 64);
}

// Choices are kept per device context: a launch in another context (another GPU, or another
// context on the same one) finds none in memory. On the same kind of GPU it reads the disk
// record instead of timing; on another kind it tunes for that GPU.
TEST(Autotune, ChoicesArePerDeviceContext) {
  tilec_test::ScopedCacheDir dir;
  Harness h;
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  h.backend.context = 1;
  EXPECT_EQ(tuner.tune(key_for(1000), h.how)["BLOCK"], 64);
  const int timings = h.backend.timings;
  h.backend.context = 2; // same GPU model: the disk record answers
  EXPECT_EQ(tuner.find(key_for(1000)), nullptr);
  EXPECT_EQ(tuner.tune(key_for(1000), h.how)["BLOCK"], 64);
  EXPECT_EQ(h.backend.timings, timings);
  h.backend.context = 3; // another GPU, where 32 is fastest
  h.backend.device = "Other GPU, sm_80, 108 SMs, driver 13000";
  h.ms = {{32, 0.5}, {64, 1.0}, {128, 2.0}};
  EXPECT_EQ(tuner.tune(key_for(1000), h.how)["BLOCK"], 32);
  EXPECT_GT(h.backend.timings, timings);
  h.backend.context = 1; // the first context keeps its own choice
  ASSERT_NE(tuner.find(key_for(1000)), nullptr);
  EXPECT_EQ(tuner.find(key_for(1000))->get("BLOCK"), 64);
}

TEST(Autotune, DiskRoundTrip) {
  tilec_test::ScopedCacheDir dir;
  {
    Harness h;
    tilec::Autotuner tuner(kSource, three_blocks());
    h.attach(tuner);
    tuner.tune(key_for(1000), h.how);
  }
  std::string path = record_file(dir.path());
  ASSERT_FALSE(path.empty()) << "no .autotune record in " << dir.path();
  std::ifstream in(path);
  std::string text(std::istreambuf_iterator<char>(in), {});
  EXPECT_NE(text.find("kernel k\nkey T=float, DIV16=0x3, n=1000\n"
                      "choice BLOCK=64, num_warps=4, num_stages=3\nms 1\n"),
            std::string::npos)
      << text;

  Harness h2;
  h2.backend.forbid_timing = true;
  tilec::Autotuner again(kSource, three_blocks());
  h2.attach(again);
  auto before = tilec::runtime_stats();
  EXPECT_EQ(again.tune(key_for(1000), h2.how)["BLOCK"], 64);
  EXPECT_EQ(tilec::runtime_stats().autotune_disk_hits, before.autotune_disk_hits + 1);
  EXPECT_TRUE(h2.compiled.empty());
}

TEST(Autotune, DiskKeyCoversDeviceSourceAndConfigs) {
  tilec_test::ScopedCacheDir dir;
  {
    Harness h;
    tilec::Autotuner tuner(kSource, three_blocks());
    h.attach(tuner);
    tuner.tune(key_for(1000), h.how);
  }
  auto tunes_again = [](const tilec::Source &source, tilec::TuningSpec spec, std::string device) {
    Harness h;
    h.backend.device = device;
    tilec::Autotuner tuner(source, std::move(spec));
    h.attach(tuner);
    tuner.tune(key_for(1000), h.how);
    return h.backend.timings > 0;
  };
  EXPECT_FALSE(tunes_again(kSource, three_blocks(), "Fake GPU, sm_90a, driver 13000"));
  EXPECT_TRUE(tunes_again(kSource, three_blocks(), "Other GPU, sm_80, driver 13000"));
  EXPECT_TRUE(
      tunes_again({"fake.cu", "// edited"}, three_blocks(), "Fake GPU, sm_90a, driver 13000"));
  tilec::TuningSpec fewer =
      spec_of({tilec::Config({{"BLOCK", 32}}, 4, 3), tilec::Config({{"BLOCK", 64}}, 4, 3)});
  EXPECT_TRUE(tunes_again(kSource, fewer, "Fake GPU, sm_90a, driver 13000"));
}

TEST(Autotune, CorruptRecordIsIgnoredAndRewritten) {
  tilec_test::ScopedCacheDir dir;
  const char *damages[] = {"", "tilec autotune 1\nkernel k\n", "garbage\n\xff\xfe"};
  for (const char *damage : damages) {
    {
      Harness h;
      tilec::Autotuner tuner(kSource, three_blocks());
      h.attach(tuner);
      tuner.tune(key_for(1000), h.how);
    }
    std::string path = record_file(dir.path());
    ASSERT_FALSE(path.empty());
    std::ofstream(path, std::ios::binary | std::ios::trunc) << damage;

    auto before = tilec::runtime_stats();
    Harness h;
    tilec::Autotuner tuner(kSource, three_blocks());
    h.attach(tuner);
    EXPECT_EQ(tuner.tune(key_for(1000), h.how)["BLOCK"], 64);
    EXPECT_GT(h.backend.timings, 0) << "a corrupt record was used";
    EXPECT_EQ(tilec::runtime_stats().autotune_disk_rejected, before.autotune_disk_rejected + 1);
    tilec::detail::TuneRecord r;
    std::ifstream in(path);
    std::string text(std::istreambuf_iterator<char>(in), {});
    EXPECT_TRUE(tilec::detail::parse_tune_record(text, r)) << "not rewritten:\n" << text;
  }
}

// Rewrites the one record in `dir` with `edit` applied (keeping a valid check line), then
// tunes again; true when the record was refused and the configs timed again.
template <class Edit> bool retunes_after(const std::string &dir, Edit edit) {
  {
    Harness h;
    tilec::Autotuner tuner(kSource, three_blocks());
    h.attach(tuner);
    tuner.tune(key_for(1000), h.how);
  }
  std::string path = record_file(dir);
  std::ifstream in(path);
  std::string text(std::istreambuf_iterator<char>(in), {});
  tilec::detail::TuneRecord r;
  EXPECT_TRUE(tilec::detail::parse_tune_record(text, r)) << text;
  edit(path, r);
  auto before = tilec::runtime_stats();
  Harness h;
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  EXPECT_EQ(tuner.tune(key_for(1000), h.how)["BLOCK"], 64);
  bool rejected =
      tilec::runtime_stats().autotune_disk_rejected == before.autotune_disk_rejected + 1;
  return rejected && h.backend.timings > 0;
}

void rewrite_record(const std::string &path, const tilec::detail::TuneRecord &r) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      << tilec::detail::serialize_tune_record(r);
}

TEST(Autotune, RecordOfAnotherReleaseOrSourceIsRejected) {
  tilec_test::ScopedCacheDir dir;
  // The control: the record rewritten as it was is used.
  EXPECT_FALSE(retunes_after(dir.path(), [](auto &path, auto r) { rewrite_record(path, r); }));
  EXPECT_TRUE(retunes_after(dir.path(), [](auto &path, auto r) {
    r.release = "0.0.1-old";
    rewrite_record(path, r);
  }));
  EXPECT_TRUE(retunes_after(dir.path(), [](auto &path, auto r) {
    r.source.lo ^= 1;
    rewrite_record(path, r);
  }));
}

TEST(Autotune, RecordAnotherUserCouldWriteIsRefusedWithAWarning) {
  tilec_test::ScopedCacheDir dir;
  testing::internal::CaptureStderr();
  EXPECT_TRUE(retunes_after(dir.path(),
                            [](auto &path, auto) { ASSERT_EQ(::chmod(path.c_str(), 0666), 0); }));
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("ignoring the cache entry '" + record_file(dir.path()) +
                     "': it is writable by other users (mode 666)"),
            std::string::npos)
      << err;
}

TEST(Autotune, RecordWithAChoiceNotAmongTheConfigsIsRejected) {
  tilec_test::ScopedCacheDir dir;
  {
    Harness h;
    tilec::Autotuner tuner(kSource, three_blocks());
    h.attach(tuner);
    tuner.tune(key_for(1000), h.how);
  }
  std::string path = record_file(dir.path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << tilec::detail::serialize_tune_record(
      {"k", "T=float, DIV16=0x3, n=1000", "BLOCK=256, num_warps=4, num_stages=3", 0.5});
  Harness h;
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  EXPECT_EQ(tuner.tune(key_for(1000), h.how)["BLOCK"], 64);
  EXPECT_GT(h.backend.timings, 0);
}

TEST(Autotune, PruneHookDropsConfigsBeforeCompiling) {
  tilec_test::ScopedCacheDir dir;
  Harness h;
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  h.how.keep = [](const tilec::Config &c) { return c["BLOCK"] != 64; };
  EXPECT_EQ(tuner.tune(key_for(1000), h.how)["BLOCK"], 128);
  EXPECT_EQ(h.compiled.size(), 2u);
  EXPECT_EQ(h.backend.timings, 2);

  h.how.keep = [](const tilec::Config &) { return false; };
  try {
    tuner.tune(key_for(7), h.how);
    FAIL() << "pruning every config must throw";
  } catch (const tilec::Error &e) {
    EXPECT_NE(std::string(e.what()).find("kept none of the 3 configs"), std::string::npos)
        << e.what();
  }
}

TEST(Autotune, FailingConfigsAreSkippedWithAMessage) {
  tilec_test::ScopedCacheDir dir;
  Harness h;
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  auto compile = h.how.compile;
  h.how.compile = [&](const tilec::Config &c) {
    if (c["BLOCK"] == 64)
      throw tilec::Error("tilec: NVRTC failed for k<64, 4, 3, 3u>:\nline 1: error\nline 2");
    compile(c);
  };
  auto launch = h.how.launch;
  h.how.launch = [&](const tilec::Config &c) {
    if (c["BLOCK"] == 128)
      throw tilec::Error("tilec: k<128, 8, 2, 3u> requests 300000 bytes of dynamic shared memory");
    launch(c);
  };
  EXPECT_EQ(tuner.tune(key_for(1000), h.how)["BLOCK"], 32);
  ASSERT_EQ(h.log.size(), 2u);
  EXPECT_EQ(h.log[0], "tilec: autotuning k: config 2 of 3 (BLOCK=64, num_warps=4, num_stages=3) "
                      "skipped: tilec: NVRTC failed for k<64, 4, 3, 3u>: "
                      "(TILEC_PRINT_AUTOTUNING=1 shows the whole message)");
  EXPECT_EQ(h.log[1], "tilec: autotuning k: config 3 of 3 (BLOCK=128, num_warps=8, num_stages=2) "
                      "skipped: tilec: k<128, 8, 2, 3u> requests 300000 bytes of dynamic shared "
                      "memory");

  h.how.compile = [](const tilec::Config &) { throw tilec::Error("tilec: no"); };
  EXPECT_THROW(tuner.tune(key_for(5), h.how), tilec::Error);

  // A heuristic that throws skips its config; when it throws for all, tuning fails cleanly.
  h.how.compile = compile;
  h.how.complete = [](const tilec::Config &) -> tilec::Config {
    throw tilec::Error("tilec: a heuristic failed");
  };
  EXPECT_THROW(tuner.tune(key_for(6), h.how), tilec::Error);
}

TEST(Autotune, PrintsProgressAndTheChoice) {
  tilec_test::ScopedCacheDir dir;
  ScopedEnv print("1");
  Harness h;
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  h.how.keep = [](const tilec::Config &c) { return c["BLOCK"] != 128; };
  tuner.tune(key_for(1000), h.how);
  ASSERT_EQ(h.log.size(), 5u);
  EXPECT_EQ(h.log[0], "tilec: autotuning k for T=float, DIV16=0x3, n=1000: 3 configs");
  EXPECT_EQ(h.log[1],
            "tilec: autotuning k: config 1 of 3 (BLOCK=32, num_warps=4, num_stages=3): 3.0000 ms");
  EXPECT_EQ(h.log[2],
            "tilec: autotuning k: config 2 of 3 (BLOCK=64, num_warps=4, num_stages=3): 1.0000 ms");
  EXPECT_EQ(h.log[3],
            "tilec: autotuning k: config 3 of 3 (BLOCK=128, num_warps=8, num_stages=2): pruned");
  EXPECT_EQ(h.log[4].rfind("tilec: autotuning k for T=float, DIV16=0x3, n=1000: chose config 2 "
                           "of 3 (BLOCK=64, num_warps=4, num_stages=3), 1.0000 ms; tuning took ",
                           0),
            0u)
      << h.log[4];

  Harness h2; // a second tuner finds the choice on disk and says so
  tilec::Autotuner again(kSource, three_blocks());
  h2.attach(again);
  again.tune(key_for(1000), h2.how);
  ASSERT_EQ(h2.log.size(), 1u);
  EXPECT_EQ(h2.log[0], "tilec: autotuning k for T=float, DIV16=0x3, n=1000: config 2 of 3 "
                       "(BLOCK=64, num_warps=4, num_stages=3) from the disk cache (1.0000 ms "
                       "when tuned)");
}

TEST(Autotune, HeuristicsCompleteEachConfigBeforePruneAndLaunch) {
  tilec_test::ScopedCacheDir dir;
  Harness h;
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  const int n = 100;
  h.how.complete = [&](tilec::Config c) {
    c.set("EVEN", n % c["BLOCK"] == 0);
    c.num_stages = 1;
    return c;
  };
  std::vector<std::string> seen;
  h.how.keep = [&](const tilec::Config &c) {
    seen.push_back(c.str());
    return true;
  };
  auto launch = h.how.launch;
  h.how.launch = [&](const tilec::Config &c) {
    EXPECT_TRUE(c.has("EVEN"));
    launch(c);
  };
  tuner.tune(key_for(n), h.how);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0], "BLOCK=32, EVEN=0, num_warps=4, num_stages=1");
}

TEST(Autotune, ResetToZeroAndRestoreValueBeforeEveryRunAndAfter) {
  tilec_test::ScopedCacheDir dir;
  Harness h;
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  int zeroed[4] = {5, 5, 5, 5};
  int restored[4] = {7, 7, 7, 7};
  std::vector<int> seen_zeroed, seen_restored;
  auto launch = h.how.launch;
  h.how.launch = [&](const tilec::Config &c) { // a kernel that accumulates in place
    seen_zeroed.push_back(zeroed[0]);
    seen_restored.push_back(restored[3]);
    for (int i = 0; i < 4; ++i) {
      zeroed[i] += 1;
      restored[i] += 10;
    }
    launch(c);
  };
  h.how.buffers = {{zeroed, sizeof zeroed, true}, {restored, sizeof restored, false}};
  tuner.tune(key_for(1000), h.how);
  ASSERT_EQ(seen_zeroed.size(), 9u);
  for (size_t i = 0; i < seen_zeroed.size(); ++i) {
    EXPECT_EQ(seen_zeroed[i], 0) << "run " << i;
    EXPECT_EQ(seen_restored[i], 7) << "run " << i;
  }
  EXPECT_EQ(zeroed[0], 0); // as the launch that follows tuning expects them
  EXPECT_EQ(restored[0], 7);
  EXPECT_EQ(h.backend.saved, 1);
  EXPECT_EQ(h.backend.released, 1);
}

TEST(Autotune, OneConfigIsNotTimed) {
  tilec_test::ScopedCacheDir dir;
  Harness h;
  h.backend.forbid_timing = true;
  tilec::Autotuner single(kSource, spec_of({tilec::Config({{"BLOCK", 64}}, 8, 2)}));
  h.attach(single);
  EXPECT_EQ(single.tune(key_for(1), h.how).num_warps, 8);
  // Heuristics only (no configs): one default config.
  tilec::Autotuner none(kSource, spec_of({}));
  h.attach(none);
  const tilec::Config &c = none.tune(key_for(1), h.how);
  EXPECT_EQ(c.size(), 0);
  EXPECT_EQ(c.num_warps, 4);
  EXPECT_EQ(c.num_stages, 3);
}

TEST(Autotune, CompilesConfigsInParallel) {
  if (std::thread::hardware_concurrency() < 2)
    GTEST_SKIP() << "one hardware thread";
  tilec_test::ScopedCacheDir dir;
  Harness h;
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  std::mutex m;
  std::condition_variable cv;
  int started = 0;
  std::atomic<bool> overlapped{false};
  h.how.compile = [&](const tilec::Config &) {
    std::unique_lock<std::mutex> lock(m);
    ++started;
    cv.notify_all();
    // Each compile waits (a while) for a second one to start: only threads make that happen.
    if (cv.wait_for(lock, std::chrono::seconds(20), [&] { return started >= 2; }))
      overlapped = true;
  };
  tuner.tune(key_for(1000), h.how);
  EXPECT_TRUE(overlapped);
}

TEST(Autotune, ClearMemoryCacheForgetsChoices) {
  tilec_test::ScopedCacheDir dir;
  Harness h;
  tilec::Autotuner tuner(kSource, three_blocks());
  h.attach(tuner);
  tuner.tune(key_for(1000), h.how);
  tilec::clear_memory_cache();
  EXPECT_EQ(tuner.find(key_for(1000)), nullptr);
  h.backend.forbid_timing = true; // the disk still has it
  EXPECT_EQ(tuner.tune(key_for(1000), h.how)["BLOCK"], 64);
}

TEST(Autotune, KeyTextSpellsEachKind) {
  tilec_test::ScopedCacheDir dir;
  ScopedEnv print("1");
  tilec::TuningSpec spec = three_blocks();
  spec.key_names = {"T", "RELU", "DIV16", "eps", "n"};
  spec.key_kinds = "tbmfi";
  Harness h;
  tilec::Autotuner tuner(kSource, spec);
  h.attach(tuner);
  tilec::SpecKey key;
  key.push(tilec::type_id<tl::half>());
  key.push(1);
  key.push(0x1ff);
  key.push(tilec::key_value(0.5f));
  key.push(-3);
  tuner.tune(key, h.how);
  ASSERT_FALSE(h.log.empty());
  EXPECT_EQ(h.log[0],
            "tilec: autotuning k for T=tl::half, RELU=true, DIV16=0x1ff, eps=0.5, n=-3: 3 configs");
}

TEST(AutotuneConfig, ValuesAndText) {
  tilec::Config c({{"BLOCK_M", 128}, {"BLOCK_N", 64}}, 8, 2);
  EXPECT_EQ(c["BLOCK_M"], 128);
  c.set("BLOCK_M", 256);
  c.set("EVEN_K", 1);
  EXPECT_EQ(c.size(), 3);
  EXPECT_EQ(c.str(), "BLOCK_M=256, BLOCK_N=64, EVEN_K=1, num_warps=8, num_stages=2");
  EXPECT_TRUE(c.has("EVEN_K"));
  EXPECT_FALSE(c.has("BLOCK_K"));
  try {
    c.get("BLOCK_K");
    FAIL();
  } catch (const tilec::Error &e) {
    EXPECT_NE(std::string(e.what()).find("no value for BLOCK_K"), std::string::npos);
  }
}

TEST(AutotuneConfig, GridFromAGridOrAFunctionOfTheConfig) {
  tilec::Config c({{"BLOCK", 256}});
  tilec::GridFn fixed(tilec::Grid{3, 2, 1});
  EXPECT_EQ(fixed(c).x, 3u);
  EXPECT_EQ(fixed(c).y, 2u);
  int n = 1000;
  auto programs = [&](const tilec::Config &meta) { return tilec::cdiv(n, meta["BLOCK"]); };
  EXPECT_EQ(tilec::GridFn(programs)(c).x, 4u);
  auto grid2d = [](const tilec::Config &) { return tilec::Grid{5, 6, 1}; };
  EXPECT_EQ(tilec::GridFn(grid2d)(c).y, 6u);
  EXPECT_EQ(tilec::next_power_of_2(1000), 1024);
  EXPECT_EQ(tilec::next_power_of_2(1), 1);
  EXPECT_EQ(tilec::next_power_of_2(64), 64);
}

TEST(AutotuneRecord, RoundTripAndDamage) {
  tilec::detail::TuneRecord r{"matmul",
                              "T=tl::half, DIV16=0x1ff, M=4096",
                              "BLOCK_M=128, num_warps=4, num_stages=3",
                              0.25,
                              "1.2.3",
                              tilec::detail::Hash128{0x0123456789abcdefull, 42}};
  std::string text = tilec::detail::serialize_tune_record(r);
  tilec::detail::TuneRecord back;
  ASSERT_TRUE(tilec::detail::parse_tune_record(text, back));
  EXPECT_EQ(back.kernel, r.kernel);
  EXPECT_EQ(back.key, r.key);
  EXPECT_EQ(back.choice, r.choice);
  EXPECT_DOUBLE_EQ(back.ms, 0.25);
  EXPECT_EQ(back.release, "1.2.3");
  EXPECT_EQ(back.source, r.source);
  for (size_t cut = 0; cut < text.size(); ++cut)
    EXPECT_FALSE(tilec::detail::parse_tune_record(text.substr(0, cut), back)) << cut;
  std::string edited = text;
  edited[edited.find("128")] = '2'; // a plausible edit that the check catches
  EXPECT_FALSE(tilec::detail::parse_tune_record(edited, back));
  EXPECT_FALSE(tilec::detail::parse_tune_record(text + "extra\n", back));
}
