#include "ptx_link.h"

#include "cache_trust.h"
#include "file_util.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#ifndef TILEC_TOOLKIT_PTXAS
#define TILEC_TOOLKIT_PTXAS "/usr/local/cuda/bin/ptxas"
#endif

extern char **environ;

namespace tilec::detail {
namespace {

namespace fs = std::filesystem;

bool executable(const fs::path &p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// Runs argv with stdout and stderr into `log_path`; returns the exit status (-1: not run).
int run(const std::vector<std::string> &argv, const std::string &log_path) {
  std::vector<char *> args;
  for (const auto &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A private folder for one assembly: its PTX, cubin and messages.
struct WorkDir {
  fs::path path;
  WorkDir() {
    static std::atomic<unsigned> counter{0};
    std::error_code ec;
    fs::path base = fs::temp_directory_path(ec);
    if (ec)
      return;
    fs::path p = base / ("tilec-ptxas-" + std::to_string(::getpid()) + "-" +
                         std::to_string(counter.fetch_add(1)));
    std::string why;
    if (make_private_dirs(p.string(), why))
      path = p;
  }
  ~WorkDir() {
    std::error_code ec;
    if (!path.empty())
      fs::remove_all(path, ec);
  }
};

} // namespace

std::string exact_block_sizes(std::string ptx) {
  static const std::string from = ".maxntid", to = ".reqntid";
  for (size_t at = ptx.find(from); at != std::string::npos; at = ptx.find(from, at + to.size())) {
    // A directive: first on its line (after indentation) and followed by a blank.
    size_t before = at == 0 ? std::string::npos : ptx.find_last_not_of(" \t", at - 1);
    bool starts_line = before == std::string::npos || ptx[before] == '\n';
    size_t next = at + from.size();
    bool whole = next < ptx.size() && (ptx[next] == ' ' || ptx[next] == '\t');
    if (starts_line && whole)
      ptx.replace(at, from.size(), to);
  }
  return ptx;
}

std::string ptxas_path() {
  if (const char *env = std::getenv("TILEC_PTXAS"))
    return *env && executable(env) ? env : "";
  return executable(TILEC_TOOLKIT_PTXAS) ? TILEC_TOOLKIT_PTXAS : "";
}

const std::string &ptxas_identity() {
  static const std::string id = [] {
    std::string path = ptxas_path();
    if (path.empty())
      return std::string();
    WorkDir dir;
    std::string version;
    if (!dir.path.empty() && run({path, "--version"}, (dir.path / "version").string()) == 0)
      read_file((dir.path / "version").string(), version);
    return path + "\n" + version;
  }();
  return id;
}

bool assemble_ptx(const std::string &ptxas, const std::string &ptx, const std::string &arch,
                  std::string &cubin, std::string &why) {
  WorkDir dir;
  if (dir.path.empty()) {
    why = "no private folder in the temporary directory";
    return false;
  }
  const std::string in = (dir.path / "kernel.ptx").string(), out = (dir.path / "kernel.cubin").string(),
                    log = (dir.path / "ptxas.log").string();
  if (!write_file_atomically(in, ptx)) {
    why = "cannot write " + in;
    return false;
  }
  int rc = run({ptxas, "-arch=" + arch, "-O3", "-lineinfo", in, "-o", out}, log);
  if (rc == 0 && read_file(out, cubin) && !cubin.empty())
    return true;
  std::string messages;
  read_file(log, messages);
  why = ptxas + (rc < 0 ? " could not be run" : " exited with " + std::to_string(rc)) +
        (messages.empty() ? "" : ":\n" + messages);
  return false;
}

} // namespace tilec::detail
