// example_main.cpp - the shared driver of the examples (see example_main.h).
#include "example_main.h"

#include <tilec/runtime.h>

#include <algorithm>
#include <cstdio>
#include <exception>

namespace example {

bool RunOptions::has(const std::string &flag) const {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

namespace {

void print_usage(const char *argv0, const ExampleMain &ex) {
  std::string usage = "usage: " + std::string(argv0) + " [--gpu] [--interpreter]";
  for (const std::string &f : ex.extra_flags)
    usage += " [" + f + "]";
  std::fprintf(stderr, "%s\n", usage.c_str());
}

} // namespace

int run_example(int argc, char **argv, const ExampleMain &ex) {
  bool require_gpu = false, interpreter = false;
  RunOptions run;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--gpu")
      require_gpu = true;
    else if (a == "--interpreter")
      interpreter = true;
    else if (std::find(ex.extra_flags.begin(), ex.extra_flags.end(), a) != ex.extra_flags.end())
      run.flags.push_back(a);
    else {
      print_usage(argv[0], ex);
      return 2;
    }
  }

  if (!interpreter) {
    std::string why;
    run.gpu = tilec::gpu_available(&why);
    if (!run.gpu && require_gpu) {
      std::printf("SKIPPED: no GPU (%s)\n", why.c_str());
      return kSkipped;
    }
    if (!run.gpu)
      std::printf("No GPU (%s): running the %s in the tilec interpreter instead.\n", why.c_str(),
                  ex.what);
  } else {
    std::printf("Running the %s in the tilec interpreter (--interpreter).\n", ex.what);
  }
  if (run.gpu)
    std::printf("Running the %s on the GPU through the tilec runtime.\n", ex.what);

  bool ok = false;
  try {
    ok = ex.checks(run);
  } catch (const std::exception &e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}

} // namespace example
