#include "tool/CheckInstances.h"

namespace tilec {

namespace {

/// A kernel's specializations when --aot names none. Every DIV16 variant of the first, one
/// variant (every eligible argument aligned, the usual launch) of each further config: a large
/// config costs NVRTC seconds.
std::vector<std::string> defaultInstances(const Kernel &k, const AutotuneDecl *tune,
                                          const std::string &fallbackInt) {
  AotSpec plain;
  plain.kernel = k.name;
  for (auto &tp : k.templateParams)
    plain.templateArgs.push_back(tp.kind == TemplateParam::Kind::Type   ? "float"
                                 : tp.kind == TemplateParam::Kind::Bool ? "false"
                                                                        : fallbackInt);
  std::vector<AotSpec> specs;
  if (tune)
    for (auto &c : tune->configs) {
      AotSpec s = plain;
      s.numWarps = c.numWarps;
      s.numStages = c.numStages;
      for (auto &v : c.values)
        for (size_t i = 0; i < k.templateParams.size(); ++i)
          if (k.templateParams[i].name == v.param.name)
            s.templateArgs[i] = std::to_string(v.value);
      specs.push_back(s);
    }
  if (specs.empty())
    specs.push_back(plain);
  std::vector<std::string> out;
  for (size_t i = 0; i < specs.size(); ++i) {
    std::vector<uint64_t> masks = aotDiv16Masks(k);
    if (i > 0)
      masks.erase(masks.begin(), masks.end() - 1);
    for (uint64_t m : masks)
      out.push_back(nameExpression(k, specs[i], m));
  }
  return out;
}

} // namespace

CheckInstances checkInstances(const std::vector<const Kernel *> &kernels,
                              const std::vector<AotSpec> &specs,
                              const std::vector<AutotuneDecl> &autotune,
                              const std::string &fallbackInt) {
  CheckInstances out;
  for (const Kernel *k : kernels) {
    bool named = false;
    for (auto &s : specs)
      if (s.kernel == k->name) {
        named = true;
        for (uint64_t m : aotDiv16Masks(*k))
          out.names.push_back(nameExpression(*k, s, m));
      }
    if (named)
      continue;
    const AutotuneDecl *tune = nullptr;
    for (auto &d : autotune)
      if (d.kernel == k->name && !d.configs.empty())
        tune = &d;
    out.fallback |= !tune;
    std::vector<std::string> d = defaultInstances(*k, tune, fallbackInt);
    out.chosen.push_back(d.front());
    out.names.insert(out.names.end(), d.begin(), d.end());
  }
  return out;
}

} // namespace tilec
