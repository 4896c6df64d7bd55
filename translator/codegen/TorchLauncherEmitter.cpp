// Launchers on PyTorch tensors, appended to the launcher header inside
// `#ifdef TILEC_TORCH_ADAPTER` (defined by <tilec/torch.h>): one overload of each launcher, and
// of each autotuned launcher, whose pointer parameters are tilec::torch::TensorArg instead of
// pointers and which takes no stream. It checks every tensor (by its parameter's name) before
// anything runs, then calls the pointer launcher on the tensors' device and current stream.
// A kernel without pointer parameters gets none: there would be no tensor to take a device
// and a stream from.
#include "codegen/Codegen.h"
#include "codegen/LauncherNames.h"

#include <sstream>

namespace tilec {
namespace {

std::string templateHeader(const std::vector<const TemplateParam *> &params) {
  if (params.empty())
    return "";
  std::string s = "template <";
  for (size_t i = 0; i < params.size(); ++i)
    s += (i ? ", " : "") + params[i]->cppType + " " + params[i]->name;
  return s + ">\n";
}

std::string templateArgs(const std::vector<const TemplateParam *> &params) {
  if (params.empty())
    return "";
  std::string s = "<";
  for (size_t i = 0; i < params.size(); ++i)
    s += (i ? ", " : "") + params[i]->name;
  return s + ">";
}

// The pointee of a pointer parameter with its const, as tilec::torch::arg wants it.
std::string pointee(const KernelParam &p) {
  return (p.type.pointeeConst ? "const " : "") + p.type.elem.cuda();
}

// One overload. `launcher` is the pointer launcher's name, `gridType` its first parameter's
// type; `options` names a trailing LaunchOptions parameter, or is empty when there is none.
void emitOverload(std::ostream &os, const Kernel &k, const std::vector<const TemplateParam *> &tps,
                  const std::string &launcher, const std::string &gridType,
                  const std::string &options) {
  bool anyPointer = false;
  for (auto &p : k.params)
    anyPointer |= p.type.pointer;
  if (!anyPointer)
    return;
  LauncherNames n(k);
  os << "\n/// " << launcher << " on tensors: see tilec/torch.h.\n" << templateHeader(tps);
  os << "inline void " << launcher << "(" << gridType << " " << n.grid;
  for (auto &p : k.params)
    os << ", " << (p.type.pointer ? "tilec::torch::TensorArg" : p.type.cudaElem()) << " " << p.name;
  if (!options.empty())
    os << ",\n    const tilec::LaunchOptions& " << options << " = {}";
  os << ") {\n";
  // Checked in order, so that the first bad argument is the one named.
  os << "  tilec::torch::Launch " << n.launch << "(\"" << k.name << "\", {";
  int pointers = 0;
  for (auto &p : k.params)
    if (p.type.pointer)
      os << (pointers++ ? ",\n      " : "\n      ") << "tilec::torch::arg<" << pointee(p) << ">("
         << p.name << ", \"" << p.name << "\")";
  os << "});\n";
  os << "  " << launcher << templateArgs(tps) << "(" << n.grid << ", " << n.launch << ".stream()";
  int index = 0;
  for (auto &p : k.params) {
    if (p.type.pointer)
      os << ", " << n.launch << ".data<" << pointee(p) << ">(" << index++ << ")";
    else
      os << ", " << p.name;
  }
  if (!options.empty())
    os << ", " << options;
  os << ");\n}\n";
}

} // namespace

std::string emitTorchLaunchers(const std::vector<const Kernel *> &kernels,
                               const std::vector<AutotuneDecl> &decls) {
  std::ostringstream os;
  os << "\n// Launchers on PyTorch tensors, declared when <tilec/torch.h> comes first.\n"
     << "#ifdef TILEC_TORCH_ADAPTER\n";
  for (const Kernel *k : kernels) {
    std::vector<const TemplateParam *> tps;
    for (auto &tp : k->templateParams)
      tps.push_back(&tp);
    emitOverload(os, *k, tps, k->name, "tilec::Grid", LauncherNames(*k).options);
  }
  for (auto &d : decls)
    for (const Kernel *k : kernels)
      if (k->name == d.kernel) {
        std::vector<const TemplateParam *> tps;
        for (auto &tp : k->templateParams)
          if (!d.setPerConfig(tp.name))
            tps.push_back(&tp);
        emitOverload(os, *k, tps, k->name + "_autotuned", "tilec::GridFn", "");
      }
  os << "#endif // TILEC_TORCH_ADAPTER\n";
  return os.str();
}

} // namespace tilec
