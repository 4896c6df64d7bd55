#include "tool/Translate.h"

#include "Pipeline.h"
#include "codegen/Codegen.h"
#include "codegen/FileIdentifier.h"
#include "frontend/Frontend.h"
#include "tool/CheckInstances.h"
#include "tool/InputNames.h"
#include "tool/NvrtcCheck.h"
#include "tool/Resources.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
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

/// Where the kernel `name` is declared (kernels are top-level, possibly in a linkage block).
SourceLocation kernelLocation(const DeclContext *dc, const std::string &name) {
  for (const Decl *d : dc->decls()) {
    if (auto *ls = dyn_cast<LinkageSpecDecl>(d)) {
      if (SourceLocation loc = kernelLocation(ls, name); loc.isValid())
        return loc;
      continue;
    }
    const FunctionDecl *fd = dyn_cast<FunctionDecl>(d);
    if (auto *ft = dyn_cast<FunctionTemplateDecl>(d))
      fd = ft->getTemplatedDecl();
    if (fd && fd->doesThisDeclarationHaveABody() && fd->getNameAsString() == name)
      return fd->getLocation();
  }
  return {};
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
    for (auto &k : kernels)
      checkTarget(ctx, *k, o_.target);
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
          // Arguments left out take the parameters' defaults.
          for (size_t i = s.templateArgs.size(); i < k->templateParams.size(); ++i)
            if (!k->templateParams[i].defaultArg.empty())
              s.templateArgs.push_back(k->templateParams[i].defaultArg);
            else
              break;
          if (s.templateArgs.size() != k->templateParams.size()) {
            std::cerr << "tilec: error: --aot '" << text << "': " << k->name << " takes "
                      << k->templateParams.size() << " template argument"
                      << (k->templateParams.size() == 1 ? "" : "s") << "\n";
            failed_ = true;
            return;
          }
          if (std::string err = checkAotArgs(*k, s); !err.empty()) {
            std::cerr << "tilec: error: --aot '" << text << "': " << err << "\n";
            failed_ = true;
            return;
          }
        }
      if (known) {
        specs.push_back(s);
      } else if (o_.check && o_.inputs.size() <= 1) {
        // Checking one input, every spec names one of its kernels: a misspelt one would
        // otherwise check nothing, silently. (A build passes each source the specs of all its
        // sources, so without --check a spec may belong to another file.)
        std::cerr << "tilec: error: --aot '" << text << "': no kernel of that name in the input "
                  << "(its kernels are the functions marked TILEC_KERNEL)\n";
        failed_ = true;
        return;
      }
    }

    if (o_.check) {
      CheckInstances plan = checkInstances(ks, specs, autotune, "16");
      std::string log = nvrtcCheck(cuda, eo.stem + ".cu", o_.target.arch, plan.names);
      // 16 is below what some tiles need (K of an 8-bit tl::dot is a multiple of 32): kernels
      // left to the fallback pass if they compile at 64 instead.
      if (!log.empty() && plan.fallback &&
          nvrtcCheck(cuda, eo.stem + ".cu", o_.target.arch,
                     checkInstances(ks, specs, autotune, "64").names)
              .empty())
        log.clear();
      // Limits the kernel checks per specialization are the user's errors: say them where the
      // kernel or the dimension is written.
      auto report = [&](SourceLocation loc, const std::string &message, const std::string &why) {
        if (log.find(message) == std::string::npos)
          return;
        diags.Report(loc, diags.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << message + why;
        failed_ = true;
      };
      for (auto *k : ks) {
        if (log.empty())
          break;
        SourceLocation at = kernelLocation(ctx.getTranslationUnitDecl(), k->name);
        report(at, staticSmemMessage(k->name), "");
        for (const TileDim &d : symbolicTileDims(*k))
          report(d.loc.isValid() ? d.loc : at, tileDimMessage(*k, d.text),
                 "; a specialization --check compiled breaks it");
        for (const TileShape &shape : symbolicTileShapes(*k))
          report(shape.loc.isValid() ? shape.loc : at, tileElemsMessage(*k, shape),
                 "; a specialization --check compiled breaks it");
        // The kernel's static_asserts (the user's, and the promotion checks the translator
        // adds), where they are written.
        walk(*k, [&](const Op &op) {
          if (op.kind == OpKind::StaticAssert && !op.opcode.empty() &&
              log.find("static assertion failed with \"" + op.opcode + "\"") != std::string::npos)
            report(op.loc.isValid() ? op.loc : at, op.opcode,
                   " (static_assert fails in a specialization --check compiled)");
        });
      }
      if (failed_)
        return;
      if (!log.empty()) {
        if (o_.nvrtcRejected)
          *o_.nvrtcRejected = true;
        std::cerr << eo.stem << ".cu: error: NVRTC failed for " << o_.target.arch << ":\n"
                  << log << "\n";
        if (!plan.chosen.empty()) {
          std::cerr << "tilec: note: --check compiled specializations of its own choosing for "
                       "kernels that no --aot names:";
          for (auto &c : plan.chosen)
            std::cerr << " " << c;
          if (plan.fallback)
            std::cerr << " (int template parameters without a config at 16, then at 64)";
          std::cerr << "; name the ones you launch with --aot='kernel<args>'\n";
        }
        failed_ = true;
        return;
      }
    }

    if (!o_.write)
      return;
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

/// Arguments every parse needs: C++20, the vocabulary header, clang's own headers, then the
/// user's. Empty when the installation is incomplete (after saying so).
std::vector<std::string> clangArguments(const TranslateOptions &o) {
  const Resources &res = resources();
  if (res.include.empty() || res.clangResource.empty()) {
    std::cerr << "tilec: error: incomplete installation: tilec/tl.h belongs in <prefix>/include "
                 "and clang's headers in <prefix>/lib/tilec/clang/include, where <prefix> is "
                 "the folder above the one holding tilec ($TILEC_INCLUDE_DIR overrides the "
                 "first)\n";
    return {};
  }
  std::vector<std::string> args = {"-xc++", "-std=c++20", "-I" + res.include,
                                   "-resource-dir=" + res.clangResource,
                                   "-Wno-unused-command-line-argument"};
  args.insert(args.end(), o.clangArgs.begin(), o.clangArgs.end());
  return args;
}

} // namespace

int translateCode(const std::string &code, const std::string &fileName, const TranslateOptions &o) {
  std::vector<std::string> args = clangArguments(o);
  if (args.empty())
    return 1;
  bool failed = false;
  bool ok = tooling::runToolOnCodeWithArgs(std::make_unique<Action>(o, failed), code, args,
                                           fileName, "tilec");
  return ok && !failed ? 0 : 1;
}

int translate(const TranslateOptions &o) {
  std::vector<std::string> extra = clangArguments(o);
  if (extra.empty())
    return 1;
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
  tool.appendArgumentsAdjuster(
      tooling::getInsertArgumentAdjuster(extra, tooling::ArgumentInsertPosition::END));
  tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
  bool failed = false;
  Factory factory(o, failed);
  int rc = tool.run(&factory);
  return (rc != 0 || failed) ? 1 : 0;
}

} // namespace tilec
