// The disk cache: round trip, atomic writes, corrupt entries rejected and rewritten, and
// an unusable folder degrading to memory-only caching.
#include "disk_cache.h"
#include "file_util.h"
#include "spec_compiler.h"
#include "stats.h"
#include "test_env.h"

#include <tilec/runtime.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using namespace tilec::detail;

namespace {

std::string entry_file(const CompileJob &job) {
  return cache_entry_path(tilec::cache_dir(), spec_cache_key(job));
}

std::string slurp(const std::string &path) {
  std::string s;
  EXPECT_TRUE(read_file(path, s)) << path;
  return s;
}

void overwrite(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Corrupts the cached entry with `damage`, then checks the next lookup rejects it,
// recompiles, and leaves a valid entry behind.
template <class Damage> void expect_rejected_and_rewritten(Damage damage) {
  tilec_test::ScopedCacheDir dir;
  CompileJob job = tilec_test::scale_job("sm_80");
  CompiledKernel first = compile_cached(job, tilec::cache_dir());
  std::string path = entry_file(job);
  std::string bytes = slurp(path);
  damage(bytes);
  overwrite(path, bytes);

  auto before = tilec::runtime_stats();
  CompiledKernel again = compile_cached(job, tilec::cache_dir());
  auto after = tilec::runtime_stats();
  EXPECT_EQ(after.disk_rejected, before.disk_rejected + 1);
  EXPECT_EQ(after.nvrtc_compiles, before.nvrtc_compiles + 1);
  EXPECT_EQ(after.disk_hits, before.disk_hits);
  EXPECT_EQ(again.cubin, first.cubin);

  CompiledKernel third = compile_cached(job, tilec::cache_dir());
  EXPECT_EQ(tilec::runtime_stats().disk_hits, after.disk_hits + 1) << "entry was not rewritten";
  EXPECT_EQ(third.lowered_name, first.lowered_name);
}

} // namespace

TEST(DiskCache, CacheDirFollowsEnvironment) {
  tilec_test::ScopedCacheDir dir;
  EXPECT_EQ(tilec::cache_dir(), dir.path());
  unsetenv("TILEC_CACHE_DIR");
  std::string def = tilec::cache_dir();
  if (!std::getenv("XDG_CACHE_HOME") && std::getenv("HOME"))
    EXPECT_EQ(def, std::string(std::getenv("HOME")) + "/.cache/tilec");
  setenv("TILEC_CACHE_DIR", dir.path().c_str(), 1);
}

TEST(DiskCache, RoundTrip) {
  tilec_test::ScopedCacheDir dir;
  CompileJob job = tilec_test::scale_job("sm_80");
  auto s0 = tilec::runtime_stats();
  CompiledKernel compiled = compile_cached(job, tilec::cache_dir());
  auto s1 = tilec::runtime_stats();
  EXPECT_EQ(s1.nvrtc_compiles, s0.nvrtc_compiles + 1);
  EXPECT_EQ(s1.disk_hits, s0.disk_hits);
  EXPECT_TRUE(fs::exists(entry_file(job)));

  CompiledKernel loaded = compile_cached(job, tilec::cache_dir());
  auto s2 = tilec::runtime_stats();
  EXPECT_EQ(s2.nvrtc_compiles, s1.nvrtc_compiles);
  EXPECT_EQ(s2.disk_hits, s1.disk_hits + 1);
  EXPECT_EQ(loaded.cubin, compiled.cubin);
  EXPECT_EQ(loaded.lowered_name, compiled.lowered_name);
}

TEST(DiskCache, KeyCoversEverythingThatChangesTheCubin) {
  CompileJob base = tilec_test::scale_job("sm_80");
  Hash128 k = spec_cache_key(base);
  EXPECT_EQ(spec_cache_key(base), k);
  CompileJob other = base;
  other.arch = "sm_90a";
  EXPECT_NE(spec_cache_key(other), k);
  other = base;
  other.name_expression = "scale_kernel<256, 4, 3, 3u>";
  EXPECT_NE(spec_cache_key(other), k);
  other = base;
  other.source += " ";
  EXPECT_NE(spec_cache_key(other), k);
  other = base;
  other.extra_flags = {"-lineinfo"};
  EXPECT_NE(spec_cache_key(other), k);
  other = base;
  other.extra_headers = {{"a.cuh", "x"}};
  EXPECT_NE(spec_cache_key(other), k);
  other = base;
  other.source_path = "elsewhere.cu"; // where the text came from does not change the cubin
  EXPECT_EQ(spec_cache_key(other), k);
}

TEST(DiskCache, AtomicWriteLeavesNoTemporaryFiles) {
  tilec_test::ScopedCacheDir dir;
  std::string path = dir.path() + "/file.bin";
  ASSERT_TRUE(write_file_atomically(path, "first"));
  ASSERT_TRUE(write_file_atomically(path, "second, longer"));
  EXPECT_EQ(slurp(path), "second, longer");
  EXPECT_EQ(tilec_test::list_files(dir.path()), "file.bin ");

  compile_cached(tilec_test::scale_job("sm_80"), tilec::cache_dir());
  for (const auto &e : fs::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
}

TEST(DiskCache, AtomicWriteIntoMissingFolderFailsCleanly) {
  tilec_test::ScopedCacheDir dir;
  EXPECT_FALSE(write_file_atomically(dir.path() + "/missing/file.bin", "x"));
  EXPECT_EQ(tilec_test::list_files(dir.path()), "");
}

TEST(DiskCache, FlippedPayloadBytesAreRejected) {
  expect_rejected_and_rewritten([](std::string &b) {
    b[b.size() / 2] ^= 0x5a;
    b[b.size() - 1] ^= 0x01;
  });
}

TEST(DiskCache, FlippedHeaderBytesAreRejected) {
  expect_rejected_and_rewritten([](std::string &b) { b[20] ^= 0x80; }); // inside the key
}

TEST(DiskCache, TruncatedEntryIsRejected) {
  expect_rejected_and_rewritten([](std::string &b) { b.resize(b.size() - 100); });
}

TEST(DiskCache, TruncatedHeaderIsRejected) {
  expect_rejected_and_rewritten([](std::string &b) { b.resize(10); });
}

TEST(DiskCache, EmptyEntryIsRejected) {
  expect_rejected_and_rewritten([](std::string &b) { b.clear(); });
}

TEST(DiskCache, EntryOfAnotherKeyIsRejected) {
  tilec_test::ScopedCacheDir dir;
  CompileJob a = tilec_test::scale_job("sm_80"), b = a;
  b.name_expression = "scale_kernel<64, 4, 3, 3u>";
  compile_cached(a, tilec::cache_dir());
  fs::copy_file(entry_file(a), entry_file(b)); // a valid entry under the wrong name
  CompiledKernel out;
  EXPECT_EQ(cache_load(tilec::cache_dir(), spec_cache_key(b), entry_origin(b.source), out),
            CacheLookup::Rejected);
}

TEST(DiskCache, UnwritableFolderFallsBackToMemoryWithOneWarning) {
  tilec_test::ScopedCacheDir dir;
  // A folder below a regular file can never be created, even by root.
  std::ofstream(dir.path() + "/plain-file") << "x";
  std::string bad = dir.path() + "/plain-file/cache";
  setenv("TILEC_CACHE_DIR", bad.c_str(), 1);

  testing::internal::CaptureStderr();
  CompileJob job = tilec_test::scale_job("sm_80");
  CompiledKernel k1 = compile_cached(job, tilec::cache_dir());
  job.name_expression = "scale_kernel<64, 4, 3, 3u>";
  CompiledKernel k2 = compile_cached(job, tilec::cache_dir());
  std::string err = testing::internal::GetCapturedStderr();

  EXPECT_FALSE(k1.cubin.empty());
  EXPECT_FALSE(k2.cubin.empty());
  size_t first = err.find("warning");
  ASSERT_NE(first, std::string::npos) << err;
  EXPECT_EQ(err.find("warning", first + 1), std::string::npos) << "warned twice:\n" << err;
  EXPECT_NE(err.find(bad), std::string::npos) << err;
}

TEST(DiskCache, FailedCompileWithUnwritableFolderStillReportsAPath) {
  tilec_test::ScopedCacheDir dir;
  std::ofstream(dir.path() + "/plain-file") << "x";
  setenv("TILEC_CACHE_DIR", (dir.path() + "/plain-file/cache").c_str(), 1);
  CompileJob job = tilec_test::scale_job("sm_80");
  job.source = "__global__ void broken( {}\n";
  testing::internal::CaptureStderr();
  try {
    compile_cached(job, tilec::cache_dir());
    ADD_FAILURE() << "expected a compile error";
  } catch (const tilec::Error &e) {
    std::string msg = e.what();
    std::string saved =
        (fs::temp_directory_path() / ("tilec-" + spec_cache_key(job).hex() + ".cu")).string();
    EXPECT_NE(msg.find(saved), std::string::npos) << msg;
    fs::remove(saved);
  }
  testing::internal::GetCapturedStderr();
}

TEST(DiskCache, ConcurrentWritersNeverLeavePartialFiles) {
  tilec_test::ScopedCacheDir dir;
  std::string path = dir.path() + "/shared.bin";
  std::vector<std::string> contents;
  for (int i = 0; i < 8; ++i)
    contents.push_back(std::string(100000 + i * 1000, char('a' + i)));
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      for (int round = 0; round < 5; ++round)
        EXPECT_TRUE(write_file_atomically(path, contents[i]));
    });
  for (auto &t : threads)
    t.join();
  std::string final_bytes = slurp(path);
  EXPECT_NE(std::find(contents.begin(), contents.end(), final_bytes), contents.end());
  EXPECT_EQ(tilec_test::list_files(dir.path()), "shared.bin ");
}
