// Checks of a TILEC_AUTOTUNE declaration against its kernel. Every name the declaration writes
// must mean something to the kernel, and every hook parameter must be bound to something the
// autotuned launcher has when it calls the hook:
//   heuristics: arguments, the caller's template values, the config's values and those of
//               earlier heuristics, num_warps, num_stages
//   prune:      all of the above and every heuristic's value
//   counts:     arguments and the caller's template values (they are computed once per tuning)
#include "frontend/AutotuneChecks.h"

#include <algorithm>
#include <set>

namespace tilec {

using namespace clang;

namespace {

class Checker {
public:
  Checker(AutotuneDecl &d, const Kernel &k, DiagnosticsEngine &diags)
      : d_(d), k_(k), diags_(diags) {}
  bool run();

private:
  void error(SourceLocation loc, const std::string &msg) {
    diags_.Report(loc, diags_.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << msg;
    ok_ = false;
  }
  const TemplateParam *templateParam(const std::string &n) const {
    for (auto &tp : k_.templateParams)
      if (tp.name == n)
        return &tp;
    return nullptr;
  }
  const KernelParam *arg(const std::string &n) const {
    for (auto &p : k_.params)
      if (p.name == n)
        return &p;
    return nullptr;
  }
  void checkConfigs();
  void checkKey();
  void checkHeuristics();
  void checkBuffers(std::vector<AutotuneBuffer> &list, const char *field);
  /// Each parameter of `h` must be an argument or in `bound`.
  void checkBinding(const HostHook &h, const std::set<std::string> &bound, const char *what);

  AutotuneDecl &d_;
  const Kernel &k_;
  DiagnosticsEngine &diags_;
  bool ok_ = true;
};

void Checker::checkConfigs() {
  std::set<std::string> first; // what the first config sets
  for (size_t c = 0; c < d_.configs.size(); ++c) {
    AutotuneConfig &cfg = d_.configs[c];
    std::set<std::string> sets;
    for (auto &v : cfg.values) {
      const TemplateParam *tp = templateParam(v.param.name);
      if (!tp) {
        error(v.param.loc, "'" + v.param.name + "' is not a template parameter of " + k_.name);
        continue; // not compared across configs: one error per mistake
      }
      if (tp->kind == TemplateParam::Kind::Type) {
        error(v.param.loc, "'" + v.param.name + "' is a type parameter of " + k_.name +
                               "; configs set integer and bool parameters (types come from the "
                               "call)");
        continue;
      }
      if (tp->kind == TemplateParam::Kind::Bool && v.value != 0 && v.value != 1)
        error(v.param.loc, "'" + v.param.name + "' is a bool; its value must be true or false");
      if (!sets.insert(v.param.name).second)
        error(v.param.loc, "'" + v.param.name + "' is set twice in this config");
    }
    if (cfg.numWarps < 1 || cfg.numWarps > 32 || (cfg.numWarps & (cfg.numWarps - 1)))
      error(cfg.loc,
            "num_warps must be a power of two from 1 to 32, not " + std::to_string(cfg.numWarps));
    if (cfg.numStages < 1)
      error(cfg.loc, "num_stages must be at least 1, not " + std::to_string(cfg.numStages));
    if (c == 0) {
      first = sets;
      continue;
    }
    for (auto &n : first)
      if (!sets.count(n))
        error(cfg.loc, "this config does not set '" + n +
                           "', which the first config sets; every config sets the same template "
                           "parameters");
    for (auto &v : cfg.values)
      if (sets.count(v.param.name) && !first.count(v.param.name))
        error(v.param.loc, "the first config does not set '" + v.param.name +
                               "'; every config sets the same template parameters");
  }
  // Kernel order, so that configs and specialization keys read alike.
  for (auto &tp : k_.templateParams)
    if (first.count(tp.name))
      d_.tuned.push_back(tp.name);
  auto order = [&](const AutotuneValue &a, const AutotuneValue &b) {
    auto pos = [&](const std::string &n) {
      return std::find(d_.tuned.begin(), d_.tuned.end(), n) - d_.tuned.begin();
    };
    return pos(a.param.name) < pos(b.param.name);
  };
  for (auto &cfg : d_.configs)
    std::stable_sort(cfg.values.begin(), cfg.values.end(), order);
}

void Checker::checkKey() {
  std::set<std::string> seen;
  for (auto &n : d_.key) {
    const KernelParam *p = arg(n.name);
    if (!p)
      error(n.loc, "'" + n.name + "' in the key is not an argument of " + k_.name);
    else if (p->type.pointer)
      error(n.loc, "'" + n.name + "' in the key is a pointer; the key names scalar arguments");
    if (!seen.insert(n.name).second)
      error(n.loc, "'" + n.name + "' is named twice in the key");
  }
}

void Checker::checkBinding(const HostHook &h, const std::set<std::string> &bound,
                           const char *what) {
  for (auto &p : h.params) {
    if (arg(p.name) || bound.count(p.name))
      continue;
    const TemplateParam *tp = templateParam(p.name);
    std::string msg = "parameter '" + p.name + "' of the " + what;
    if (tp && tp->kind == TemplateParam::Kind::Type)
      msg += " names a type parameter; hooks take values";
    else if (tp || p.name == "num_warps" || p.name == "num_stages")
      msg += " is not known yet when the " + std::string(what) + " runs";
    else
      msg += " names neither an argument nor a template parameter of " + k_.name +
             " (nor num_warps, num_stages)";
    error(p.loc, msg);
  }
}

void Checker::checkHeuristics() {
  std::set<std::string> targets;
  for (auto &h : d_.heuristics) {
    const std::string &n = h.target.name;
    const TemplateParam *tp = templateParam(n);
    if (n != "num_warps" && n != "num_stages") {
      if (!tp)
        error(h.target.loc, "'" + n + "' is not a template parameter of " + k_.name);
      else if (tp->kind == TemplateParam::Kind::Type)
        error(h.target.loc, "'" + n + "' is a type parameter of " + k_.name +
                                "; heuristics compute integer and bool parameters");
      else if (d_.setByConfigs(n))
        error(h.target.loc, "'" + n +
                                "' is set by the configs; a heuristic computes a template "
                                "parameter that they do not set");
    }
    if (!targets.insert(n).second)
      error(h.target.loc, "'" + n + "' has two heuristics");
  }
  // Bound for a heuristic: the caller's template values, the configs', earlier heuristics'.
  std::set<std::string> bound = {"num_warps", "num_stages"};
  for (auto &tp : k_.templateParams)
    if (tp.kind != TemplateParam::Kind::Type && !d_.setByHeuristic(tp.name))
      bound.insert(tp.name);
  for (auto &h : d_.heuristics) {
    checkBinding(h.value, bound, "heuristic");
    bound.insert(h.target.name);
  }
  if (!d_.prune.empty())
    checkBinding(d_.prune, bound, "prune hook");
}

void Checker::checkBuffers(std::vector<AutotuneBuffer> &list, const char *field) {
  std::set<std::string> callerValues; // what a count may use besides the arguments
  for (auto &tp : k_.templateParams)
    if (tp.kind != TemplateParam::Kind::Type && !d_.setPerConfig(tp.name))
      callerValues.insert(tp.name);
  for (auto &b : list) {
    const KernelParam *p = arg(b.arg.name);
    if (!p)
      error(b.arg.loc, "'" + b.arg.name + "' in " + field + " is not an argument of " + k_.name);
    else if (!p->type.pointer)
      error(b.arg.loc, "'" + b.arg.name + "' in " + field + " is not a pointer");
    else if (p->type.pointeeConst)
      error(b.arg.loc, "'" + b.arg.name + "' in " + field +
                           " points to const; the kernel cannot write it in place");
    checkBinding(b.count, callerValues, "count hook");
  }
}

bool Checker::run() {
  checkConfigs();
  checkKey();
  checkHeuristics();
  checkBuffers(d_.resetToZero, "reset_to_zero");
  checkBuffers(d_.restoreValue, "restore_value");
  // The tuning key: the caller's template values, DIV16, the key and the device the choice
  // is made for (tilec::SpecKey::kMax).
  size_t keyValues = 2 + d_.key.size();
  for (auto &tp : k_.templateParams)
    keyValues += !d_.setPerConfig(tp.name);
  if (d_.tuned.size() + d_.heuristics.size() > 16)
    error(d_.loc, "a config of " + k_.name + " would hold more than 16 values (tilec::Config)");
  if (keyValues > kMaxSpecKeyValues)
    error(d_.loc, "the tuning key of " + k_.name + " would hold " + std::to_string(keyValues) +
                      " values (template parameters the call sets, DIV16, the key, the "
                      "device); at most " + std::to_string(kMaxSpecKeyValues));
  return ok_;
}

} // namespace

bool checkAutotune(AutotuneDecl &decl, const Kernel &k, DiagnosticsEngine &diags) {
  return Checker(decl, k, diags).run();
}

} // namespace tilec
