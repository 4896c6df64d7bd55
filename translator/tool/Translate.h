// Runs clang over each input and the pipeline over its kernels, writing <stem>.cu,
// <stem>.tilec.h and (with --aot) <stem>.aot.cu into the output folder.
#pragma once

#include "target/Target.h"

#include <string>
#include <vector>

namespace tilec {

struct TranslateOptions {
  std::vector<std::string> inputs;
  std::string outputDir = ".";
  std::vector<std::string> clangArgs; // -I, -D, -std, --extra-arg and everything after `--`
  std::string buildDir;               // -p: folder with compile_commands.json
  std::string dumpAfter;
  bool roundTripIR = false; // check that the printed IR parses back (checkRoundTrip)
  bool lineDirectives = false;
  bool check = false;
  Target target = Target::defaultTarget(); // --arch; also what --check compiles for
  std::vector<std::string> aotSpecs;
  bool write = true;             // false: translate (and --check) but write no files
  bool *nvrtcRejected = nullptr; // set when --check finds output NVRTC rejects (a tilec bug)
};

/// Returns the process exit status.
int translate(const TranslateOptions &opts);

/// Translates source text as the file `fileName` (for the fuzzer: inputs is ignored; set
/// `write` to false to keep the outputs in memory only). Returns the exit status.
int translateCode(const std::string &code, const std::string &fileName,
                  const TranslateOptions &opts);

} // namespace tilec
