// ptx_of.h: compiles a CUDA source that includes the device library to PTX with NVRTC, under
// the runtime's own flags, for the PTX tests of the templates (which instructions a template
// becomes).
#pragma once

#include "embedded_templates.h"
#include "nvrtc_compiler.h"

#include <nvrtc.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tilec::test {

/// The PTX of `source` for a virtual architecture (`compute_90a`), or "" after a failed test
/// expectation carrying NVRTC's log. `extra_flags` go after the runtime's, as a kernel's do.
inline std::string ptx_of(const char *source, const char *name, const std::string &arch,
                          const std::vector<std::string> &extra_flags = {}) {
  size_t count = 0;
  const tilec::detail::EmbeddedFile *files = tilec::detail::embedded_templates(&count);
  std::vector<const char *> texts, names;
  for (size_t i = 0; i < count; ++i) {
    texts.push_back(files[i].text);
    names.push_back(files[i].name);
  }
  nvrtcProgram prog;
  EXPECT_EQ(nvrtcCreateProgram(&prog, source, name, int(count), texts.data(), names.data()),
            NVRTC_SUCCESS);
  // The runtime's flags, for a virtual architecture: NVRTC then stops at PTX.
  tilec::detail::CompileJob job;
  job.arch = arch;
  job.extra_flags = extra_flags;
  std::vector<std::string> flags = tilec::detail::compile_flags(job);
  std::vector<const char *> opts;
  for (const std::string &f : flags)
    opts.push_back(f.c_str());
  nvrtcResult r = nvrtcCompileProgram(prog, int(opts.size()), opts.data());
  size_t logSize = 0;
  nvrtcGetProgramLogSize(prog, &logSize);
  std::string log(logSize, '\0');
  nvrtcGetProgramLog(prog, log.data());
  std::string ptx;
  if (r == NVRTC_SUCCESS) {
    size_t size = 0;
    nvrtcGetPTXSize(prog, &size);
    ptx.resize(size);
    nvrtcGetPTX(prog, ptx.data());
  }
  nvrtcDestroyProgram(&prog);
  EXPECT_EQ(r, NVRTC_SUCCESS) << log;
  return ptx;
}

/// How many times `what` occurs in `text`.
inline size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

/// The PTX of entry `name`: from its `.entry name(` line to the end of its body.
inline std::string body_of(const std::string &ptx, const std::string &name) {
  const size_t start = ptx.find(".entry " + name + "(");
  if (start == std::string::npos)
    return "";
  const size_t end = ptx.find("\n}", start);
  return ptx.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

} // namespace tilec::test
