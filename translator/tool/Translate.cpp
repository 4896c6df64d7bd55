#include "tool/Translate.h"

#include "Pipeline.h"
#include "codegen/Codegen.h"
#include "codegen/FileIdentifier.h"
#include "frontend/Frontend.h"
#include "tool/InputNames.h"
#include "tool/NvrtcCheck.h"
#include "tool/Resources.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace tilec {

namespace fs = std::filesystem;
using namespace clang;

namespace {

/// Writes `text` to `path`; "" on success, else why not (the system's reason).
std::string writeFile(const fs::path &path, const std::string &text) {
  // Write to a temporary name, then rename, so a failed run never leaves half a file.
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f)
      return "cannot create '" + tmp.string() + "': " + std::strerror(errno);
    f << text;
    f.flush();
    if (!f.good()) {
      std::string why = std::strerror(errno);
      f.close();
      fs::remove(tmp);
      return "cannot write '" + tmp.string() + "': " + why;
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp);
    return "cannot rename '" + tmp.string() + "' to '" + path.string() + "': " + ec.message();
  }
  return "";
}

std::vector<std::string> defaultInstances(const Kernel &k) {
  AotSpec s;
  s.kernel = k.name;
  for (auto &tp : k.templateParams)
    s.templateArgs.push_back(tp.kind == TemplateParam::Kind::Type   ? "float"
                             : tp.kind == TemplateParam::Kind::Bool ? "false"
                                                                    : "256");
  std::vector<std::string> out;
  for (unsigned m : aotDiv16Masks(k))
    out.push_back(nameExpression(k, s, m));
  return out;
}

class Consumer : public ASTConsumer {
public:
  Consumer(const TranslateOptions &o, CompilerInstance &ci, bool &failed)
      : o_(o), ci_(ci), failed_(failed) {}

  void HandleTranslationUnit(ASTContext &ctx) override {
    auto &diags = ctx.getDiagnostics();
    if (diags.hasErrorOccurred()) {
      explainClangErrors(ctx);
      return;
    }
    auto &sm = ctx.getSourceManager();
    fs::path input = sm.getFileEntryRefForID(sm.getMainFileID())->getName().str();
    auto kernels = lowerKernels(ctx);
    if (diags.hasErrorOccurred())
      return;
    if (kernels.empty()) {
      diags.Report(sm.getLocForStartOfFile(sm.getMainFileID()),
                   diags.getCustomDiagID(DiagnosticsEngine::Warning,
                                         "no TILEC_KERNEL functions in this file"));
    }
    std::string dump;
    std::vector<const Kernel *> ks;
    for (auto &k : kernels) {
      const Op *where = nullptr;
      std::vector<std::string> printed;
      if (std::string err =
              runPasses(*k, o_.target, o_.dumpAfter, dump, &where,
                        o_.roundTripIR ? &printed : nullptr);
          !err.empty()) {
        std::cout << dump; // what was asked for, up to the failure
        if (where && where->loc.isValid())
          diags.Report(where->loc, diags.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << err;
        else
          std::cerr << input.string() << ": error: " << err << "\n";
        failed_ = true;
        return;
      }
      if (std::string err = o_.roundTripIR ? checkRoundTrip(printed, o_.target) : ""; !err.empty()) {
        std::cerr << input.string() << ": error: internal error: the IR of '" << k->name
                  << "' does not round-trip: " << err << "\n";
        failed_ = true;
        return;
      }
      ks.push_back(k.get());
    }
    if (!dump.empty())
      std::cout << dump;
    std::vector<AutotuneDecl> autotune = readAutotuneDecls(ctx, ks);
    if (diags.hasErrorOccurred())
      return;

    EmitOptions eo;
    eo.inputName = input.filename().string();
    eo.inputPath = fs::absolute(input).string();
    eo.stem = input.stem().string();
    eo.ns = fileIdentifier(eo.stem);
    eo.lineDirectives = o_.lineDirectives;
    eo.target = o_.target;
    std::string cuda = emitCuda(ks, eo);
    std::string launcher = emitLauncher(ks, cuda, eo) + emitAutotunedLaunchers(ks, autotune, eo) +
                           emitTorchLaunchers(ks, autotune);

    std::vector<AotSpec> specs;
    for (auto &text : o_.aotSpecs) {
      AotSpec s;
      if (std::string err = parseAotSpec(text, s); !err.empty()) {
        std::cerr << "tilec: error: --aot: " << err << "\n";
        failed_ = true;
        return;
      }
      bool known = false;
      for (auto *k : ks)
        if (k->name == s.kernel) {
          known = true;
          if (s.templateArgs.size() != k->templateParams.size()) {
            std::cerr << "tilec: error: --aot '" << text << "': " << k->name << " takes "
                      << k->templateParams.size() << " template argument"
                      << (k->templateParams.size() == 1 ? "" : "s") << "\n";
            failed_ = true;
            return;
          }
        }
      if (known)
        specs.push_back(s);
    }

    if (o_.check) {
      std::vector<std::string> names;
      for (auto *k : ks) {
        bool any = false;
        for (auto &s : specs)
          if (s.kernel == k->name) {
            any = true;
            for (unsigned m : aotDiv16Masks(*k))
              names.push_back(nameExpression(*k, s, m));
          }
        if (!any)
          for (auto &n : defaultInstances(*k))
            names.push_back(n);
      }
      std::string log = nvrtcCheck(cuda, eo.stem + ".cu", o_.target.arch, names);
      if (!log.empty()) {
        std::cerr << eo.stem << ".cu: error: NVRTC failed for " << o_.target.arch << ":\n"
                  << log << "\n";
        failed_ = true;
        return;
      }
    }

    fs::path dir = o_.outputDir;
    std::error_code ec;
    fs::create_directories(dir, ec);
    std::string err = ec ? "cannot create the folder: " + ec.message() : "";
    if (err.empty())
      err = writeFile(dir / (eo.stem + ".cu"), cuda);
    if (err.empty())
      err = writeFile(dir / (eo.stem + ".tilec.h"), launcher);
    if (err.empty() && !o_.aotSpecs.empty())
      err = writeFile(dir / (eo.stem + ".aot.cu"), emitAot(ks, specs, eo));
    if (!err.empty()) {
      std::cerr << "tilec: error: cannot write the output into '" << dir.string() << "': " << err
                << "\n";
      failed_ = true;
    }
  }

private:
  const TranslateOptions &o_;
  CompilerInstance &ci_;
  bool &failed_;
};

class Action : public ASTFrontendAction {
public:
  Action(const TranslateOptions &o, bool &failed) : o_(o), failed_(failed) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, StringRef) override {
    return std::make_unique<Consumer>(o_, ci, failed_);
  }

private:
  const TranslateOptions &o_;
  bool &failed_;
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(const TranslateOptions &o, bool &failed) : o_(o), failed_(failed) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(o_, failed_);
  }

private:
  const TranslateOptions &o_;
  bool &failed_;
};

} // namespace

int translate(const TranslateOptions &o) {
  // Arguments every parse needs: C++20, the vocabulary header, clang's own headers.
  const Resources &res = resources();
  if (res.include.empty() || res.clangResource.empty()) {
    std::cerr << "tilec: error: incomplete installation: tilec/tl.h belongs in <prefix>/include "
                 "and clang's headers in <prefix>/lib/tilec/clang/include, where <prefix> is "
                 "the folder above the one holding tilec ($TILEC_INCLUDE_DIR overrides the "
                 "first)\n";
    return 1;
  }
  std::vector<std::string> base = {"-xc++", "-std=c++20", "-I" + res.include,
                                   "-resource-dir=" + res.clangResource,
                                   "-Wno-unused-command-line-argument"};
  std::unique_ptr<tooling::CompilationDatabase> db;
  if (!o.buildDir.empty()) {
    std::string err;
    db = tooling::CompilationDatabase::loadFromDirectory(o.buildDir, err);
    if (!db) {
      std::cerr << "tilec: error: -p " << o.buildDir << ": " << err << "\n";
      return 1;
    }
  } else {
    db = std::make_unique<tooling::FixedCompilationDatabase>(".", std::vector<std::string>{});
  }
  for (auto &in : o.inputs)
    if (!fs::exists(in)) {
      std::cerr << "tilec: error: no such file: '" << in << "'\n";
      return 1;
    }
  if (std::string err = checkInputNames(o.inputs, o.lineDirectives); !err.empty()) {
    std::cerr << "tilec: error: " << err << "\n";
    return 1;
  }
  tooling::ClangTool tool(*db, o.inputs);
  std::vector<std::string> extra = base;
  extra.insert(extra.end(), o.clangArgs.begin(), o.clangArgs.end());
  tool.appendArgumentsAdjuster(
      tooling::getInsertArgumentAdjuster(extra, tooling::ArgumentInsertPosition::END));
  tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
  bool failed = false;
  Factory factory(o, failed);
  int rc = tool.run(&factory);
  return (rc != 0 || failed) ? 1 : 0;
}

} // namespace tilec
