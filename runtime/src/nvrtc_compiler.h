// nvrtc_compiler.h - compiles one kernel specialization to a cubin with NVRTC (and the
// toolkit's ptxas where there is one: ptx_link.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tilec::detail {

/// One specialization to compile.
struct CompileJob {
  std::string source;          ///< CUDA text
  std::string source_path;     ///< where the text came from (may not exist)
  std::string name_expression; ///< e.g. "add_kernel<1024, 4, 3, 7u>"
  std::string arch;            ///< "sm_80", "sm_90a", ...
  std::vector<std::string> extra_flags;
  /// Headers besides the embedded templates (include name, text); used by tests.
  std::vector<std::pair<std::string, std::string>> extra_headers;
};

struct CompiledKernel {
  std::string cubin;        ///< ELF image for cuModuleLoadData
  std::string lowered_name; ///< mangled name for cuModuleGetFunction
};

/// The full NVRTC option list for `job` (arch, include dirs, extra flags), in order.
std::vector<std::string> compile_flags(const CompileJob &job);

/// "<major>.<minor>" of the loaded NVRTC.
std::string nvrtc_version();

/// The CUDA include dir: $TILEC_CUDA_INCLUDE_DIR, else the toolkit's from the build.
std::string cuda_include_dir();

/// Compiles with NVRTC to PTX and assembles it with each kernel's block size exact where a
/// ptxas is found (ptx_link.h), else to NVRTC's cubin. On failure throws tilec::Error with
/// the specialization, the log and a path to the source: `job.source_path` if that file
/// exists, else `failed_source_path`, where the text is written first (so the log's file
/// names point at a real file).
CompiledKernel compile_with_nvrtc(const CompileJob &job, const std::string &failed_source_path);

} // namespace tilec::detail
