// The autotuned launchers: for each TILEC_AUTOTUNE declaration, `<kernel>_autotuned<...>(grid,
// stream, args...)` in the launcher header. Its template parameters are those of the kernel
// that neither the configs nor a heuristic set; the rest come from the config tilec::Autotuner
// chooses, so one launcher compiles and times every config without instantiating anything.
// The declaration's hooks are copied next to it, in the header's namespace.
#include "codegen/Codegen.h"
#include "codegen/LauncherNames.h"
#include "ir/SpecFacts.h"

#include <set>
#include <sstream>
#include <string>

namespace tilec {

namespace {

bool isArg(const Kernel &k, const std::string &n) {
  for (auto &p : k.params)
    if (p.name == n)
      return true;
  return false;
}

class Emitter {
public:
  Emitter(const Kernel &k, const AutotuneDecl &d, const EmitOptions &o, std::ostringstream &os)
      : k_(k), d_(d), os_(os), ns_("tilec_generated::" + o.ns), n_(k),
        threads_(blockThreads(k, n_.config + ".num_warps * " + std::to_string(o.target.warpSize))) {}

  /// The declaration's data and hooks, inside the header's namespace.
  void emitSupport(std::set<std::string> &copiedFunctions);
  void emitLauncher();

private:
  /// What the launcher passes for a hook parameter named `n` (inside a lambda over a config).
  std::string bind(const std::string &n) const {
    if (n == "num_warps" || n == "num_stages")
      return n_.config + "." + n;
    if (!isArg(k_, n) && d_.setPerConfig(n))
      return n_.config + ".get(\"" + n + "\")";
    return n; // an argument or a template parameter of the launcher
  }
  std::string call(const HostHook &h, const std::string &name) const {
    std::string s = ns_ + "::" + (h.functionName.empty() ? name : h.functionName) + "(";
    for (size_t i = 0; i < h.params.size(); ++i)
      s += (i ? ", " : "") + bind(h.params[i].name);
    return s + ")";
  }
  /// Appends the hook's definition to `out`, unless it is a function copied already.
  static void emitHook(const HostHook &h, const std::string &name, std::set<std::string> &copied,
                       std::string &out) {
    if (h.functionName.empty())
      out += "inline const auto " + name + " = " + h.text + ";\n";
    else if (copied.insert(h.functionName).second)
      out += h.text + "\n";
  }
  std::string hookName(const std::string &role) const { return k_.name + "_" + role; }
  bool isBool(const std::string &n) const {
    for (auto &tp : k_.templateParams)
      if (tp.name == n)
        return tp.kind == TemplateParam::Kind::Bool;
    return false;
  }

  const Kernel &k_;
  const AutotuneDecl &d_;
  std::ostringstream &os_;
  std::string ns_;
  LauncherNames n_;     // the launcher's own identifiers
  std::string threads_; // a config's threads per block: num_warps times the target's warp size
};

void Emitter::emitSupport(std::set<std::string> &copied) {
  os_ << "/// " << k_.name << "'s TILEC_AUTOTUNE declaration: its configs, the names of the "
      << "tuning key\n/// (the template values of the call, DIV16, the key) and the timing.\n";
  os_ << "inline tilec::TuningSpec " << k_.name << "_tuning() {\n"
      << "  tilec::TuningSpec spec;\n"
      << "  spec.kernel = \"" << k_.name << "\";\n";
  if (d_.configs.empty())
    os_ << "  // No configs: the autotuner runs one with the default num_warps and num_stages.\n";
  else
    os_ << "  spec.configs = {\n";
  for (auto &c : d_.configs) {
    os_ << "      tilec::Config({";
    for (size_t i = 0; i < c.values.size(); ++i) {
      const AutotuneValue &v = c.values[i];
      os_ << (i ? ", " : "") << "{\"" << v.param.name << "\", "
          << (isBool(v.param.name) ? (v.value ? "true" : "false") : std::to_string(v.value)) << "}";
    }
    os_ << "}, /*num_warps=*/" << c.numWarps << ", /*num_stages=*/" << c.numStages << "),\n";
  }
  if (!d_.configs.empty())
    os_ << "  };\n";
  std::string names, kinds;
  for (auto &tp : k_.templateParams)
    if (!d_.setPerConfig(tp.name)) {
      names += "\"" + tp.name + "\", ";
      kinds += tp.kind == TemplateParam::Kind::Type   ? 't'
               : tp.kind == TemplateParam::Kind::Bool ? 'b'
                                                      : 'i';
    }
  names += "\"DIV16\"";
  kinds += 'm';
  for (auto &key : d_.key)
    for (auto &p : k_.params)
      if (p.name == key.name) {
        names += ", \"" + key.name + "\"";
        kinds += p.type.elem.isFloat() ? 'f' : p.type.elem.is(ScalarKind::Bool) ? 'b' : 'i';
      }
  os_ << "  spec.key_names = {" << names << "};\n"
      << "  spec.key_kinds = \"" << kinds << "\";\n"
      << "  spec.warmup_ms = " << d_.warmupMs << ";\n"
      << "  spec.rep_ms = " << d_.repMs << ";\n"
      << "  return spec;\n}\n";

  std::string hooks;
  for (auto &h : d_.heuristics)
    emitHook(h.value, hookName("heuristic_" + h.target.name), copied, hooks);
  if (!d_.prune.empty())
    emitHook(d_.prune, hookName("prune"), copied, hooks);
  for (auto &b : d_.resetToZero)
    emitHook(b.count, hookName("reset_" + b.arg.name), copied, hooks);
  for (auto &b : d_.restoreValue)
    emitHook(b.count, hookName("restore_" + b.arg.name), copied, hooks);
  if (!hooks.empty())
    os_ << "// The hooks of " << k_.name << "'s declaration, copied from its source.\n" << hooks;
}

void Emitter::emitLauncher() {
  const std::string &name = k_.name;
  std::string key;
  for (size_t i = 0; i < d_.key.size(); ++i)
    key += (i ? ", " : "") + d_.key[i].name;
  if (d_.configs.empty())
    os_ << "\n/// Launches " << name << " with the template values and options that the "
        << "heuristics of its\n/// TILEC_AUTOTUNE declaration compute from the arguments.";
  else
    os_ << "\n/// Launches " << name << " with the config that its TILEC_AUTOTUNE declaration "
        << "chooses: the first call\n/// for each specialization"
        << (key.empty() ? "" : " and value of the key (" + key + ")")
        << " times the configs and keeps the\n/// fastest, in memory and on disk.";
  os_ << " `grid` is a tilec::Grid or a function of\n/// the tilec::Config it runs.\n";
  std::vector<const TemplateParam *> callerParams;
  for (auto &tp : k_.templateParams)
    if (!d_.setPerConfig(tp.name))
      callerParams.push_back(&tp);
  if (!callerParams.empty()) {
    os_ << "template <";
    for (size_t i = 0; i < callerParams.size(); ++i)
      os_ << (i ? ", " : "") << callerParams[i]->cppType << " " << callerParams[i]->name;
    os_ << ">\n";
  }
  const LauncherNames &n = n_;
  const std::string &config = n.config;
  os_ << "inline void " << name << "_autotuned(tilec::GridFn " << n.grid << ", tilec::Stream "
      << n.stream;
  for (auto &p : k_.params)
    os_ << ", " << p.type.cudaElem() << " " << p.name;
  os_ << ") {\n";
  os_ << "  static tilec::Kernel " << n.kernel << "(" << ns_ << "::source, \"" << name << "\", \""
      << templateKinds(k_) << "\");\n";
  os_ << "  static tilec::Autotuner " << n.tuner << "(" << ns_ << "::source, " << ns_
      << "::" << name << "_tuning());\n";
  os_ << "  const uint64_t " << n.div16 << " = tilec::div16_mask(";
  for (size_t i = 0; i < k_.params.size() && hasDiv16Bit(i); ++i)
    os_ << (i ? ", " : "") << k_.params[i].name;
  os_ << ");\n";

  os_ << "  // A choice is kept per specialization and value of the key.\n"
      << "  tilec::SpecKey " << n.tuningKey << ";\n";
  for (auto *tp : callerParams)
    os_ << "  " << n.tuningKey << ".push("
        << (tp->kind == TemplateParam::Kind::Type ? "tilec::type_id<" + tp->name + ">()"
                                                  : "int64_t(" + tp->name + ")")
        << ");\n";
  os_ << "  " << n.tuningKey << ".push(" << n.div16 << ");\n";
  for (auto &k : d_.key)
    os_ << "  " << n.tuningKey << ".push(tilec::key_value(" << k.name << "));\n";

  os_ << "  // A config with the values of the heuristics added.\n"
      << "  auto " << n.complete << " = [&](tilec::Config " << config << ") {\n";
  for (auto &h : d_.heuristics) {
    std::string value = call(h.value, hookName("heuristic_" + h.target.name));
    if (h.target.name == "num_warps" || h.target.name == "num_stages")
      os_ << "    " << config << "." << h.target.name << " = int(" << value << ");\n";
    else if (isBool(h.target.name))
      os_ << "    " << config << ".set(\"" << h.target.name << "\", int64_t(bool(" << value
          << ")));\n";
    else
      os_ << "    " << config << ".set(\"" << h.target.name << "\", int64_t(" << value << "));\n";
  }
  os_ << "    return " << config << ";\n  };\n";

  std::string dyn = dynamicSmemBytes(k_, config + ".num_stages");
  std::string maps = tmaMapEncoding(k_, n.maps, n.mapsLive, "    ", /*declareMaps=*/false);
  // The config's own values of the template parameters that `text` uses.
  auto declareConfigValues = [&](const std::string &text) {
    for (auto &tp : k_.templateParams)
      if (d_.setPerConfig(tp.name) && containsWord(text, tp.name))
        os_ << "    const int64_t " << tp.name << " = " << config << ".get(\"" << tp.name
            << "\");\n";
  };
  // The maps' boxes are the config's blocks: each config encodes its own.
  const int mapCount = tmaMapCount(k_);
  if (mapCount) {
    os_ << "  // The tensor maps of a config, into " << n.maps
        << "; bit i of the result says map i is encoded.\n"
        << "  auto " << n.encodeMaps << " = [&](const tilec::Config &" << config
        << ", tilec::TmaMap *" << n.maps << ") {\n";
    declareConfigValues(maps);
    os_ << maps << "    return " << n.mapsLive << ";\n  };\n";
  }
  const std::string declareMaps =
      "tilec::TmaMap " + n.maps + "[" + std::to_string(mapCount) + "];";

  os_ << "  // The specialization that runs a completed config"
      << (mapCount ? " with the maps of `" + n.mapsLive + "`" : std::string()) << ".\n"
      << "  auto " << n.specKey << " = [&](const tilec::Config &" << config
      << (mapCount ? ", unsigned " + n.mapsLive : std::string()) << ") {\n"
      << "    tilec::SpecKey " << n.key << ";\n";
  for (auto &tp : k_.templateParams) {
    if (d_.setPerConfig(tp.name))
      os_ << "    " << n.key << ".push(" << config << ".get(\"" << tp.name << "\"));\n";
    else if (tp.kind == TemplateParam::Kind::Type)
      os_ << "    " << n.key << ".push(tilec::type_id<" << tp.name << ">());\n";
    else
      os_ << "    " << n.key << ".push(int64_t(" << tp.name << "));\n";
  }
  os_ << "    " << n.key << ".push(" << config << ".num_warps);\n    " << n.key << ".push("
      << config << ".num_stages);\n"
      << "    " << n.key << ".push(" << n.div16 << specFactTerms(k_, n, n.grid + "(" + config + ")")
      << ");\n    return " << n.key << ";\n  };\n";

  os_ << "  auto " << n.launch << " = [&](const tilec::Config &" << config << ") {\n";
  if (mapCount)
    os_ << "    " << declareMaps << "\n    const unsigned " << n.mapsLive << " = " << n.encodeMaps
        << "(" << config << ", " << n.maps << ");\n";
  os_ << persistentSetup(k_, n, n.grid + "(" + config + ")", "    ");
  os_ << "    void* " << n.params << "[] = {";
  for (size_t i = 0; i < k_.params.size(); ++i)
    os_ << (i ? ", " : "") << "(void*)&" << k_.params[i].name;
  if (k_.params.empty())
    os_ << "nullptr";
  os_ << tmaMapArgs(k_, n) << "};\n";
  const std::string keyArgs = config + (mapCount ? ", " + n.mapsLive : std::string());
  std::string launch = "    " + n.kernel + ".launch(" + n.specKey + "(" + keyArgs + "), " + n.grid +
                       "(" + config + "), " + threads_ + ", ";
  if (dyn.empty()) {
    os_ << launch << "/*shared_bytes=*/0, " << n.stream << ", " << n.params
        << persistentLaunchArg(k_, n) << ");\n";
  } else {
    declareConfigValues(dyn);
    os_ << "    // the stage buffers of its pipelined loops\n"
        << "    const size_t " << n.sharedBytes << " = size_t(" << dyn << ");\n"
        << launch << n.sharedBytes << ", " << n.stream << ", " << n.params
        << persistentLaunchArg(k_, n) << ");\n";
  }
  os_ << "  };\n";

  os_ << "  const tilec::Config *" << n.chosen << " = " << n.tuner << ".find(" << n.tuningKey
      << ");\n"
      << "  if (!" << n.chosen << ") {\n"
      << "    tilec::Tuning " << n.tuning << ";\n"
      << "    " << n.tuning << ".stream = " << n.stream << ";\n"
      << "    " << n.tuning << ".complete = " << n.complete << ";\n"
      << "    " << n.tuning << ".compile = [&](const tilec::Config &" << config << ") { "
      << (mapCount ? declareMaps + " " : std::string()) << n.kernel << ".function(" << n.specKey
      << "(" << config
      << (mapCount ? ", " + n.encodeMaps + "(" + config + ", " + n.maps + ")" : std::string())
      << ")); };\n"
      << "    " << n.tuning << ".launch = " << n.launch << ";\n";
  if (!d_.prune.empty())
    os_ << "    " << n.tuning << ".keep = [&](const tilec::Config &" << config << ") { return bool("
        << call(d_.prune, hookName("prune")) << "); };\n";
  auto buffers = [&](const std::vector<AutotuneBuffer> &list, const char *role, bool zero) {
    for (auto &b : list) {
      std::string elem;
      for (auto &p : k_.params)
        if (p.name == b.arg.name)
          elem = p.type.elem.sizeofExpr();
      os_ << "    " << n.tuning << ".buffers.push_back({" << b.arg.name << ", size_t("
          << call(b.count, hookName(std::string(role) + "_" + b.arg.name)) << ") * " << elem
          << ", /*zero=*/" << (zero ? "true" : "false") << "});\n";
    }
  };
  buffers(d_.resetToZero, "reset", true);
  buffers(d_.restoreValue, "restore", false);
  os_ << "    " << n.chosen << " = &" << n.tuner << ".tune(" << n.tuningKey << ", " << n.tuning
      << ");\n"
      << "  }\n"
      << "  " << n.launch << "(" << n.complete << "(*" << n.chosen << "));\n"
      << "}\n";
}

} // namespace

std::string emitAutotunedLaunchers(const std::vector<const Kernel *> &kernels,
                                   const std::vector<AutotuneDecl> &decls, const EmitOptions &o) {
  if (decls.empty())
    return "";
  std::ostringstream os;
  os << "\n// Autotuned launchers, from the TILEC_AUTOTUNE declarations of " << o.inputName
     << ".\n#include <tilec/autotune.h>\n\nnamespace tilec_generated::" << o.ns << " {\n";
  std::set<std::string> copied;
  auto kernelOf = [&](const AutotuneDecl &d) -> const Kernel * {
    for (const Kernel *k : kernels)
      if (k->name == d.kernel)
        return k;
    return nullptr;
  };
  for (auto &d : decls)
    if (const Kernel *k = kernelOf(d))
      Emitter(*k, d, o, os).emitSupport(copied);
  os << "} // namespace tilec_generated::" << o.ns << "\n";
  for (auto &d : decls)
    if (const Kernel *k = kernelOf(d))
      Emitter(*k, d, o, os).emitLauncher();
  return os.str();
}

} // namespace tilec
