// A kernel's autotuning declaration (TILEC_AUTOTUNE in its source), as the frontend reads it
// and the launcher emitter writes it out. See docs/autotuning.md.
#pragma once

#include <clang/Basic/SourceLocation.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

/// A name written in the declaration (a string literal), with where it was written.
struct AutotuneName {
  std::string name;
  clang::SourceLocation loc;
};

/// A host function copied into the launcher header: a lambda, or a named function.
struct HostHook {
  std::string text;                 // its source text, verbatim
  std::string functionName;         // a named function: its name; a lambda: ""
  std::vector<AutotuneName> params; // bound by name at the call
  clang::SourceLocation loc;
  bool empty() const { return text.empty(); }
};

struct AutotuneValue {
  AutotuneName param; // a template parameter
  int64_t value = 0;
};

struct AutotuneConfig {
  std::vector<AutotuneValue> values; // in the kernel's template order once checked
  int numWarps = 4;
  int numStages = 3;
  clang::SourceLocation loc;
};

/// reset_to_zero / restore_value: a pointer argument and its element count.
struct AutotuneBuffer {
  AutotuneName arg;
  HostHook count;
};

struct AutotuneHeuristic {
  AutotuneName target; // a template parameter, num_warps or num_stages
  HostHook value;
};

struct AutotuneDecl {
  std::string kernel;
  clang::SourceLocation loc;
  std::vector<AutotuneConfig> configs;
  std::vector<std::string> tuned; // template parameters the configs set, in kernel order
  std::vector<AutotuneName> key;  // argument names
  HostHook prune;
  std::vector<AutotuneBuffer> resetToZero, restoreValue;
  std::vector<AutotuneHeuristic> heuristics;
  double warmupMs = 25, repMs = 100;

  bool setByConfigs(const std::string &param) const {
    for (auto &t : tuned)
      if (t == param)
        return true;
    return false;
  }
  bool setByHeuristic(const std::string &param) const {
    for (auto &h : heuristics)
      if (h.target.name == param)
        return true;
    return false;
  }
  /// Set per config (by the configs or a heuristic) rather than by the caller.
  bool setPerConfig(const std::string &param) const {
    return setByConfigs(param) || setByHeuristic(param);
  }
};

} // namespace tilec
