// The translation pipeline, in order (see Pipeline.cpp for the table of contents).
#pragma once

#include "ir/IR.h"
#include "target/Target.h"

#include <string>
#include <vector>

namespace tilec {

/// Pass names accepted by --dump-after, in pipeline order.
const std::vector<std::string> &passNames();

/// Runs the passes after the frontend on `k` for `target` (the GPUs the output must run on).
/// When `dumpAfter` names a pass, the IR after it is appended to `dump`. Returns an error
/// description or ""; `where` is set to the op the error is about when there is one.
std::string runPasses(Kernel &k, const Target &target, const std::string &dumpAfter,
                      std::string &dump, const Op **where = nullptr);

} // namespace tilec
