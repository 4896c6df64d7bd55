// Who the disk cache trusts: entries made for another source or release are refused even
// with a valid checksum; entries another user owns or could write are refused with a
// warning; folders the cache makes are 0700, folders the user made keep their mode.
// (Tests run as root, which ignores permission bits on access: they check what stat says.)
#include "disk_cache.h"
#include "file_util.h"
#include "spec_compiler.h"
#include "stats.h"
#include "test_env.h"

#include <tilec/runtime.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

using namespace tilec::detail;

namespace {

constexpr uid_t kNobody = 65534;

std::string entry_file(const CompileJob &job) {
  return cache_entry_path(tilec::cache_dir(), spec_cache_key(job));
}

unsigned mode_of(const std::string &path) {
  struct stat st;
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return unsigned(st.st_mode & 07777);
}

// The entry for `job` is replaced by `plant` (a function of its path); the next lookup must
// refuse it, recompile, and leave an entry that the lookup after that loads. Returns what
// was printed on stderr meanwhile.
template <class Plant> std::string expect_refused_then_replaced(Plant plant) {
  CompileJob job = tilec_test::scale_job("sm_80");
  CompiledKernel first = compile_cached(job, tilec::cache_dir());
  const std::string path = entry_file(job);
  plant(path, first);

  auto before = tilec::runtime_stats();
  testing::internal::CaptureStderr();
  CompiledKernel again = compile_cached(job, tilec::cache_dir());
  std::string err = testing::internal::GetCapturedStderr();
  auto after = tilec::runtime_stats();
  EXPECT_EQ(after.disk_rejected, before.disk_rejected + 1) << "the planted entry was not refused";
  EXPECT_EQ(after.disk_hits, before.disk_hits) << "the planted entry was loaded";
  EXPECT_EQ(after.nvrtc_compiles, before.nvrtc_compiles + 1);
  EXPECT_EQ(again.cubin, first.cubin);

  compile_cached(job, tilec::cache_dir());
  EXPECT_EQ(tilec::runtime_stats().disk_hits, after.disk_hits + 1) << "entry was not replaced";
  return err;
}

void write_forged(const std::string &path, const CompileJob &job, const EntryOrigin &origin,
                  const CompiledKernel &k) {
  ASSERT_TRUE(write_file_atomically(path, serialize_entry(spec_cache_key(job), origin, k)));
}

} // namespace

TEST(CacheTrust, EntryForgedWithThisOriginIsLoaded) {
  // The control for the two tests below: a re-serialized entry with the right origin is a hit,
  // so their refusals come from the origin alone.
  tilec_test::ScopedCacheDir dir;
  CompileJob job = tilec_test::scale_job("sm_80");
  CompiledKernel k = compile_cached(job, tilec::cache_dir());
  write_forged(entry_file(job), job, entry_origin(job.source), k);
  CompiledKernel out;
  EXPECT_EQ(cache_load(tilec::cache_dir(), spec_cache_key(job), entry_origin(job.source), out),
            CacheLookup::Hit);
}

TEST(CacheTrust, EntryForAnotherSourceIsRefusedDespiteAValidChecksum) {
  tilec_test::ScopedCacheDir dir;
  CompileJob job = tilec_test::scale_job("sm_80");
  expect_refused_then_replaced([&](const std::string &path, const CompiledKernel &k) {
    write_forged(path, job, entry_origin(job.source + "// another kernel\n"), k);
  });
}

TEST(CacheTrust, EntryOfAnotherReleaseIsRefusedDespiteAValidChecksum) {
  tilec_test::ScopedCacheDir dir;
  CompileJob job = tilec_test::scale_job("sm_80");
  ASSERT_STRNE(tilec_version(), "0.0.1-old");
  expect_refused_then_replaced([&](const std::string &path, const CompiledKernel &k) {
    EntryOrigin old = entry_origin(job.source);
    old.tilec_version = "0.0.1-old";
    write_forged(path, job, old, k);
  });
}

TEST(CacheTrust, EntryOwnedByAnotherUserIsRefusedWithAWarning) {
  tilec_test::ScopedCacheDir dir;
  const std::string probe = dir.path() + "/probe";
  ASSERT_TRUE(write_file_atomically(probe, "x"));
  if (::chown(probe.c_str(), kNobody, kNobody) != 0)
    GTEST_SKIP() << "cannot give a file to another user here (needs root)";
  ::unlink(probe.c_str());
  std::string planted;
  std::string err = expect_refused_then_replaced([&](const std::string &path, auto &) {
    planted = path;
    ASSERT_EQ(::chown(path.c_str(), kNobody, kNobody), 0);
  });
  EXPECT_NE(err.find("warning: ignoring the cache entry '" + planted + "'"), std::string::npos)
      << err;
  EXPECT_NE(err.find("owned by uid 65534, not by this user"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  struct stat st;
  ASSERT_EQ(::stat(planted.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, ::geteuid()) << "the replacement belongs to this user";
}

TEST(CacheTrust, GroupWritableEntryIsRefusedWithAWarning) {
  tilec_test::ScopedCacheDir dir;
  std::string planted;
  std::string err = expect_refused_then_replaced([&](const std::string &path, auto &) {
    planted = path;
    ASSERT_EQ(::chmod(path.c_str(), 0620), 0);
  });
  EXPECT_NE(err.find("ignoring the cache entry '" + planted + "'"), std::string::npos) << err;
  EXPECT_NE(err.find("writable by other users (mode 620)"), std::string::npos) << err;
  EXPECT_EQ(mode_of(planted), 0600u) << "the replacement is private";
}

TEST(CacheTrust, SymbolicLinkEntryIsRefused) {
  tilec_test::ScopedCacheDir dir;
  std::string err = expect_refused_then_replaced([&](const std::string &path, auto &) {
    ASSERT_EQ(::rename(path.c_str(), (path + ".real").c_str()), 0);
    ASSERT_EQ(::symlink((path + ".real").c_str(), path.c_str()), 0);
  });
  EXPECT_NE(err.find("symbolic link"), std::string::npos) << err;
}

TEST(CacheTrust, FoldersTheCacheCreatesArePrivateWhateverTheUmask) {
  tilec_test::ScopedCacheDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  const std::string top = dir.path() + "/made", leaf = top + "/by/tilec";
  setenv("TILEC_CACHE_DIR", leaf.c_str(), 1);
  mode_t old_umask = ::umask(0); // mkdir alone would make 0777 folders now
  CompileJob job = tilec_test::scale_job("sm_80");
  compile_cached(job, tilec::cache_dir());
  ::umask(old_umask);
  EXPECT_EQ(mode_of(top), 0700u);
  EXPECT_EQ(mode_of(top + "/by"), 0700u);
  EXPECT_EQ(mode_of(leaf), 0700u);
  EXPECT_EQ(mode_of(entry_file(job)), 0600u);
  EXPECT_EQ(mode_of(dir.path()), 0755u) << "a folder that existed keeps its mode";
}

TEST(CacheTrust, SharedFolderTheUserChoseKeepsItsModeAndWarnsOnce) {
  tilec_test::ScopedCacheDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0777), 0);
  testing::internal::CaptureStderr();
  CompileJob job = tilec_test::scale_job("sm_80");
  compile_cached(job, tilec::cache_dir());
  job.name_expression = "scale_kernel<64, 4, 3, 3u>";
  compile_cached(job, tilec::cache_dir());
  compile_cached(job, tilec::cache_dir());
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(mode_of(dir.path()), 0777u);
  const std::string warning = "'" + dir.path() + "' is writable by other users (mode 777)";
  size_t first = err.find(warning);
  ASSERT_NE(first, std::string::npos) << err;
  EXPECT_EQ(err.find(warning, first + 1), std::string::npos) << "warned twice:\n" << err;
  EXPECT_NE(err.find("chmod 700"), std::string::npos) << err;
  EXPECT_GT(tilec::runtime_stats().disk_hits, 0u) << "its own entries are still used";
}

TEST(CacheTrust, PrivateFolderTheUserChoseGivesNoWarning) {
  tilec_test::ScopedCacheDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  testing::internal::CaptureStderr();
  compile_cached(tilec_test::scale_job("sm_80"), tilec::cache_dir());
  compile_cached(tilec_test::scale_job("sm_80"), tilec::cache_dir());
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(mode_of(dir.path()), 0755u);
}
