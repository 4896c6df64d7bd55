// example_main.h - the driver every example's main() hands over to: it parses --gpu and
// --interpreter (plus the example's own flags), picks the GPU or the host interpreter with
// the messages that ctest and scripts/demo.sh read, runs the example's checks and prints
// PASSED or FAILED.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace example {

/// Where the checks run and which of the example's own flags were given.
struct RunOptions {
  bool gpu = false; // on the GPU through the tilec runtime, else in the interpreter
  std::vector<std::string> flags;
  bool has(const std::string &flag) const;
};

struct ExampleMain {
  /// "kernel" or "kernels": what the progress messages say runs.
  const char *what = "kernel";
  /// Flags beyond --gpu and --interpreter, e.g. "--small"; the usage line lists them.
  std::vector<std::string> extra_flags;
  /// Runs every check and returns true when all pass; an exception fails the run with
  /// "FAIL: <what()>".
  std::function<bool(const RunOptions &)> checks;
};

/// Exit status when --gpu is given on a machine without one (ctest's SKIP_RETURN_CODE).
constexpr int kSkipped = 77;

/// main() of an example: 0 when every check passes, 1 when one fails, 2 for a bad flag,
/// kSkipped for --gpu without a GPU.
int run_example(int argc, char **argv, const ExampleMain &ex);

} // namespace example
