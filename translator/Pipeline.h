// The translation pipeline: one table of passes (Pipeline.cpp) drives the translator,
// --dump-after, tilec-opt and their --help.
#pragma once

#include "ir/IR.h"
#include "target/Target.h"

#include <string>
#include <vector>

namespace tilec {

/// One step of the pipeline after the frontend. `run` returns "" or a description of what
/// stops it, and may then set `where` to the op concerned.
struct PassInfo {
  const char *name;        // for --dump-after, tilec-opt --run-pass
  const char *description; // one line, for --help
  std::string (*run)(Kernel &k, const Target &target, const Op **where);
};

/// The passes in pipeline order (analyses included).
const std::vector<PassInfo> &passTable();

/// The pass called `name`, or null.
const PassInfo *findPass(const std::string &name);

/// Names accepted by --dump-after, in pipeline order: "frontend", then the table's.
const std::vector<std::string> &passNames();

/// "  name  description" lines for --help: "frontend" and each pass of the table.
std::string passHelp();

/// Checks `k` after `pass` ("frontend" or a table name); "" or an internal error.
std::string verifyAfter(const Kernel &k, const std::string &pass);

/// The banner --dump-after prints before the IR of a kernel after `pass`.
std::string dumpBanner(const std::string &pass);

/// Runs the passes after the frontend on `k` for `target` (the GPUs the output must run on),
/// verifying the IR after each. When `dumpAfter`
/// names a pass (or is "all"), the IR after it is appended to `dump`; `printed`, when given,
/// receives the IR after the frontend and after each pass. Returns an error description or
/// ""; `where` is set to the op the error is about when there is one.
std::string runPasses(Kernel &k, const Target &target, const std::string &dumpAfter,
                      std::string &dump, const Op **where = nullptr,
                      std::vector<std::string> *printed = nullptr);

/// Runs the named passes of the table, in the given order, verifying after each.
std::string runPassList(Kernel &k, const Target &target, const std::vector<std::string> &names,
                        const Op **where = nullptr);

/// Checks that the printed IR is complete, given runPasses' `printed`: each text parses into
/// an IR that prints the same, and the remaining passes turn it into the next texts. "" or a
/// description of the first difference.
std::string checkRoundTrip(const std::vector<std::string> &printed, const Target &target);

} // namespace tilec
