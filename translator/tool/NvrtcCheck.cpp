#include "tool/NvrtcCheck.h"
#include "tool/Resources.h"

#include <nvrtc.h>

#include <cstdlib>

namespace tilec {

static std::string envOr(const char *var, const char *fallback) {
  const char *v = std::getenv(var);
  return v && *v ? v : fallback;
}

std::string nvrtcCheck(const std::string &cuda, const std::string &sourceName,
                       const std::string &arch, const std::vector<std::string> &nameExpressions) {
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, cuda.c_str(), sourceName.c_str(), 0, nullptr, nullptr) !=
      NVRTC_SUCCESS)
    return "nvrtcCreateProgram failed";
  for (auto &n : nameExpressions)
    nvrtcAddNameExpression(prog, n.c_str());
  std::string cudaInclude = envOr("TILEC_CUDA_INCLUDE_DIR", TILEC_CUDA_INCLUDE_DIR);
  std::vector<std::string> opts = {
      "--gpu-architecture=" + arch,
      "-std=c++17",
      "-I" + resources().templates,
      "-I" + cudaInclude,
      "-I" + cudaInclude + "/cccl",
      // The check is whether the output compiles, not how fast it runs: a fast-compile level
      // still runs the whole front end and ptxas, in a third of the time. ("max" is slower
      // than the default on some unrolled kernels: rank-3 tiles took three times as long.)
      "--Ofast-compile=mid",
  };
  // As the runtime does: fp8 types on request, for kernels generic over their element type.
  for (auto &n : nameExpressions)
    if (n.find("float8_e") != std::string::npos) {
      opts.push_back("-DTILEC_FP8");
      break;
    }
  std::vector<const char *> argv;
  for (auto &o : opts)
    argv.push_back(o.c_str());
  nvrtcResult r = nvrtcCompileProgram(prog, int(argv.size()), argv.data());
  std::string log;
  size_t logSize = 0;
  if (nvrtcGetProgramLogSize(prog, &logSize) == NVRTC_SUCCESS && logSize > 1) {
    log.resize(logSize);
    nvrtcGetProgramLog(prog, log.data());
    log.resize(logSize - 1);
  }
  nvrtcDestroyProgram(&prog);
  if (r != NVRTC_SUCCESS)
    return std::string(nvrtcGetErrorString(r)) + "\n" + log;
  return "";
}

} // namespace tilec
