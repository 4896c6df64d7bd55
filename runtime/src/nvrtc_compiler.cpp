#include "nvrtc_compiler.h"

#include "cache_trust.h"
#include "embedded_templates.h"
#include "file_util.h"
#include "ptx_link.h"

#include <tilec/runtime.h>

#include <nvrtc.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#ifndef TILEC_CUDA_INCLUDE_DIR
#define TILEC_CUDA_INCLUDE_DIR "/usr/local/cuda/include"
#endif

namespace tilec::detail {
namespace {

void check_nvrtc(nvrtcResult r, const char *what, const CompileJob &job) {
  if (r != NVRTC_SUCCESS)
    throw Error(std::string("tilec: ") + what + " failed for " + job.name_expression + ": " +
                nvrtcGetErrorString(r));
}

// Destroys the program on every path out of compile_with_nvrtc.
struct ProgramGuard {
  nvrtcProgram prog = nullptr;
  ~ProgramGuard() {
    if (prog)
      nvrtcDestroyProgram(&prog);
  }
};

std::string program_log(nvrtcProgram prog) {
  size_t size = 0;
  if (nvrtcGetProgramLogSize(prog, &size) != NVRTC_SUCCESS || size == 0)
    return {};
  std::string log(size, '\0');
  if (nvrtcGetProgramLog(prog, log.data()) != NVRTC_SUCCESS)
    return {};
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
    log.pop_back();
  return log;
}

// Writes the failing text where the user can open it; falls back to the temp dir when the
// cache dir is not writable. Returns the path written, or "" when nothing could be.
std::string save_failed_source(const CompileJob &job, const std::string &wanted) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!wanted.empty()) {
    std::string why; // on failure the temp dir below is the answer
    if (make_private_dirs(fs::path(wanted).parent_path().string(), why) &&
        write_file_atomically(wanted, job.source))
      return wanted;
  }
  fs::path tmp = fs::temp_directory_path(ec) / ("tilec-" + fs::path(wanted).filename().string());
  if (!ec && write_file_atomically(tmp.string(), job.source))
    return tmp.string();
  return {};
}

void replace_all(std::string &s, const std::string &from, const std::string &to) {
  if (from.empty() || from == to)
    return;
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
}

} // namespace

std::string cuda_include_dir() {
  const char *env = std::getenv("TILEC_CUDA_INCLUDE_DIR");
  return env && *env ? env : TILEC_CUDA_INCLUDE_DIR;
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS)
    throw Error("tilec: nvrtcVersion failed");
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> compile_flags(const CompileJob &job) {
  std::string inc = cuda_include_dir();
  // -lineinfo: profilers (Nsight Compute's source view) map SASS back to source lines, the
  // kernel's .cpp lines when it was translated with --line-directives; the code is the same.
  std::vector<std::string> flags = {"--gpu-architecture=" + job.arch, "-lineinfo", "-I" + inc,
                                    "-I" + inc + "/cccl"};
  // A kernel generic over its element type meets fp8 only in its name expression; the device
  // library declares the fp8 types only on request.
  if (job.name_expression.find("float8_e") != std::string::npos)
    flags.push_back("-DTILEC_FP8");
  flags.insert(flags.end(), job.extra_flags.begin(), job.extra_flags.end());
  return flags;
}

namespace {

// NVRTC alone: the cubin for job.arch, or with `ptx_only` the PTX of its virtual counterpart
// (compute_90a for sm_90a) in `cubin`, for ptxas to assemble (ptx_link.h).
CompiledKernel run_nvrtc(const CompileJob &job, const std::string &failed_source_path,
                         bool ptx_only) {
  bool have_file = !job.source_path.empty() && std::filesystem::is_regular_file(job.source_path);
  // The program name is what the log's diagnostics cite: make it a file the user can open.
  std::string program_name = have_file ? job.source_path : failed_source_path;
  if (const char *dump = std::getenv("TILEC_DUMP_SOURCE"); dump && *dump && *dump != '0')
    std::fprintf(stderr, "tilec: compiling %s (%s) from %s%s\n", job.name_expression.c_str(),
                 job.arch.c_str(), job.source_path.c_str(), have_file ? "" : " (not on disk)");

  std::vector<const char *> header_texts, header_names;
  size_t count = 0;
  const EmbeddedFile *files = embedded_templates(&count);
  for (size_t i = 0; i < count; ++i) {
    header_texts.push_back(files[i].text);
    header_names.push_back(files[i].name);
  }
  for (const auto &[name, text] : job.extra_headers) {
    header_texts.push_back(text.c_str());
    header_names.push_back(name.c_str());
  }

  ProgramGuard guard;
  check_nvrtc(nvrtcCreateProgram(&guard.prog, job.source.c_str(), program_name.c_str(),
                                 int(header_texts.size()), header_texts.data(),
                                 header_names.data()),
              "nvrtcCreateProgram", job);
  check_nvrtc(nvrtcAddNameExpression(guard.prog, job.name_expression.c_str()),
              "nvrtcAddNameExpression", job);

  std::vector<std::string> flags = compile_flags(job);
  if (ptx_only)
    flags[0] = "--gpu-architecture=compute_" + job.arch.substr(3);
  std::vector<const char *> argv;
  for (const auto &f : flags)
    argv.push_back(f.c_str());
  nvrtcResult r = nvrtcCompileProgram(guard.prog, int(argv.size()), argv.data());
  if (r != NVRTC_SUCCESS) {
    std::string log = program_log(guard.prog);
    std::string path = job.source_path;
    if (!have_file) {
      path = save_failed_source(job, failed_source_path);
      replace_all(log, failed_source_path, path);
      if (path.empty())
        path = "<could not write the source to " + failed_source_path + ">";
    }
    std::string flat_flags;
    for (const auto &f : flags)
      flat_flags += " " + f;
    throw Error("tilec: NVRTC failed to compile " + job.name_expression + " for " + job.arch +
                " (" + nvrtcGetErrorString(r) + ")\n  source: " + path + "\n  flags:" + flat_flags +
                "\n" + log);
  }

  const char *lowered = nullptr;
  check_nvrtc(nvrtcGetLoweredName(guard.prog, job.name_expression.c_str(), &lowered),
              "nvrtcGetLoweredName", job);
  CompiledKernel out;
  out.lowered_name = lowered; // owned by the program: copy before it is destroyed
  size_t size = 0;
  if (ptx_only) {
    check_nvrtc(nvrtcGetPTXSize(guard.prog, &size), "nvrtcGetPTXSize", job);
    out.cubin.assign(size, '\0');
    check_nvrtc(nvrtcGetPTX(guard.prog, out.cubin.data()), "nvrtcGetPTX", job);
    while (!out.cubin.empty() && out.cubin.back() == '\0')
      out.cubin.pop_back();
    return out;
  }
  check_nvrtc(nvrtcGetCUBINSize(guard.prog, &size), "nvrtcGetCUBINSize", job);
  if (size == 0)
    throw Error("tilec: NVRTC produced no cubin for " + job.name_expression + " (arch " + job.arch +
                " must be a real sm_XY architecture)");
  out.cubin.resize(size);
  check_nvrtc(nvrtcGetCUBIN(guard.prog, out.cubin.data()), "nvrtcGetCUBIN", job);
  return out;
}

} // namespace

CompiledKernel compile_with_nvrtc(const CompileJob &job, const std::string &failed_source_path) {
  // PTX only, then ptxas told each kernel's exact block size (ptx_link.h): no cubin from NVRTC
  // to throw away. Where that cannot be done, NVRTC's own cubin is the answer.
  const std::string ptxas = ptxas_path();
  if (!ptxas.empty() && job.arch.rfind("sm_", 0) == 0) {
    CompiledKernel out = run_nvrtc(job, failed_source_path, /*ptx_only=*/true);
    std::string cubin, why;
    if (assemble_ptx(ptxas, exact_block_sizes(std::move(out.cubin)), job.arch, cubin, why)) {
      out.cubin = std::move(cubin);
      return out;
    }
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true))
      std::fprintf(stderr,
                   "tilec: warning: assembling %s with exact block sizes failed; using NVRTC's "
                   "cubin (set TILEC_PTXAS to another ptxas, or to nothing to skip this step): %s\n",
                   job.name_expression.c_str(), why.c_str());
  }
  return run_nvrtc(job, failed_source_path, /*ptx_only=*/false);
}

} // namespace tilec::detail
