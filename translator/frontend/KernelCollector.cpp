// Finds the TILEC_KERNEL functions of the main file and lowers each into a Kernel.
#include "frontend/Frontend.h"
#include "frontend/Lowerer.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <map>

namespace tilec {

using namespace clang;

namespace {

bool isKernel(const FunctionDecl *fd) {
  for (auto *a : fd->specific_attrs<AnnotateAttr>())
    if (a->getAnnotation() == "tilec.kernel")
      return true;
  return false;
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  explicit Collector(ASTContext &ctx) : ctx_(ctx) {}
  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (!isKernel(fd) || !fd->doesThisDeclarationHaveABody())
      return true;
    // Instantiations are not kernels of their own: translate the pattern once.
    if (fd->isTemplateInstantiation())
      return true;
    if (!ctx_.getSourceManager().isInMainFile(
            ctx_.getSourceManager().getExpansionLoc(fd->getLocation())))
      return true;
    found.push_back(fd);
    return true;
  }
  bool shouldVisitTemplateInstantiations() const { return false; }
  std::vector<const FunctionDecl *> found; // in source order

private:
  ASTContext &ctx_;
};

} // namespace

bool Lowerer::lowerKernel(const FunctionDecl *fd) {
  auto &sm = ctx_.getSourceManager();
  k_.name = fd->getNameAsString();
  k_.inputFile = sm.getFilename(sm.getExpansionLoc(fd->getLocation())).str();
  if (!fd->getReturnType()->isVoidType())
    error(fd->getLocation(), "a TILEC_KERNEL must return void");
  // NVRTC looks kernels up by name and accepts only ASCII in those names.
  for (unsigned char ch : k_.name)
    if (ch >= 0x80) {
      error(fd->getLocation(), "kernel name '" + k_.name +
                                   "' is not ASCII, which NVRTC cannot look up; name the kernel "
                                   "with letters a-z, A-Z, digits and '_'");
      break;
    }
  if (auto *ft = fd->getDescribedFunctionTemplate()) {
    for (const NamedDecl *p : *ft->getTemplateParameters())
      templateParamNames_.push_back(p->getNameAsString());
    for (const NamedDecl *p : *ft->getTemplateParameters()) {
      TemplateParam tp;
      tp.name = p->getNameAsString();
      // `auto *out`: a template parameter with no name to spell in the launcher or the CUDA.
      if (p->isImplicit()) {
        error(p->getLocation(), "a kernel parameter declared 'auto' makes an unnamed template "
                                "parameter; name it: template <class T> ... (T *out)");
        continue;
      }
      if (auto *nt = dyn_cast<NonTypeTemplateParmDecl>(p)) {
        QualType t = nt->getType();
        if (t->isBooleanType()) {
          tp.kind = TemplateParam::Kind::Bool;
          tp.cppType = "bool";
        } else if (t->isIntegerType()) {
          tp.kind = TemplateParam::Kind::Int;
          tp.cppType = t.getAsString();
        } else if (t->isRealFloatingType()) {
          // Triton's float constexprs (eps, label_smoothing): C++17, which NVRTC compiles, has
          // no floating template parameters.
          error(p->getLocation(), "a floating-point template parameter ('" + tp.name +
                                      "') cannot be compiled for the GPU (C++17); pass it as a "
                                      "kernel argument ('" + t.getAsString() + " " + tp.name +
                                      "') or as an integer template parameter");
          continue;
        } else {
          error(p->getLocation(), "template parameters must be integers, bools or element types");
          continue;
        }
      } else if (isa<TemplateTypeParmDecl>(p)) {
        tp.kind = TemplateParam::Kind::Type;
        tp.cppType = "class";
      } else {
        error(p->getLocation(), "template template parameters are not supported");
        continue;
      }
      if (p->isParameterPack())
        error(p->getLocation(), "parameter packs are not supported in kernels");
      // A default (Triton's `reduction: tl.constexpr = MEAN`): its value, so that the
      // launcher and --aot may leave the argument out. Values, not the text: the text may
      // name constants the launcher's header does not see.
      if (auto *nt = dyn_cast<NonTypeTemplateParmDecl>(p); nt && nt->hasDefaultArgument()) {
        const Expr *e = nt->getDefaultArgument().getSourceExpression();
        Expr::EvalResult r;
        if (e && !e->isValueDependent() && e->EvaluateAsInt(r, ctx_))
          tp.defaultArg = tp.kind == TemplateParam::Kind::Bool
                              ? (r.Val.getInt().getBoolValue() ? "true" : "false")
                              : std::to_string(r.Val.getInt().getExtValue());
        else
          error(nt->getLocation(), "the default of template parameter '" + tp.name +
                                       "' must be a constant the translator can evaluate "
                                       "(not one computed from other template parameters)");
      } else if (auto *tt = dyn_cast<TemplateTypeParmDecl>(p); tt && tt->hasDefaultArgument()) {
        if (auto t = mapType(tt->getDefaultArgument().getArgument().getAsType(),
                             tt->getLocation()))
          tp.defaultArg = t->elem.cuda();
      }
      // Names the generated kernel uses itself; a template parameter would be shadowed.
      static const char *const kReserved[] = {
          "i", "tid", "THREADS", "NUM_WARPS", "NUM_STAGES", "PIPELINE_STAGES", "smem", "DIV16"};
      for (const char *r : kReserved)
        if (tp.name == r)
          error(p->getLocation(), "template parameter name '" + tp.name +
                                      "' is used by the generated code; rename it");
      checkName(p->getLocation(), tp.name, "template parameter");
      if (tp.name.size() > 1 && tp.name[0] == 'L' &&
          tp.name.find_first_not_of("0123456789", 1) == std::string::npos)
        error(p->getLocation(), "template parameter name '" + tp.name +
                                    "' is used by the generated code (layouts); rename it");
      k_.templateParams.push_back(tp);
    }
    // The launcher's key: every template argument, num_warps, num_stages and DIV16.
    if (k_.templateParams.size() + 3 > kMaxSpecKeyValues)
      error(fd->getLocation(), "kernel '" + k_.name + "' has " +
                                   std::to_string(k_.templateParams.size()) +
                                   " template parameters; at most " +
                                   std::to_string(kMaxSpecKeyValues - 3) +
                                   " fit a specialization key: pass some as kernel arguments");
  }
  for (const ParmVarDecl *p : fd->parameters()) {
    if (!checkVarDecl(p, VarRole::KernelParam))
      continue;
    auto t = mapType(p->getType(), p->getLocation());
    if (!t)
      continue;
    if (p->getName().empty()) {
      error(p->getLocation(), "kernel parameters must be named");
      continue;
    }
    k_.params.push_back({p->getNameAsString(), *t});
    Op *op = k_.append(OpKind::Param, {}, *t);
    op->result->name = p->getNameAsString();
    op->attrs.push_back(SymExpr(int64_t(k_.params.size() - 1)));
    vars_[p] = op->result;
  }
  lowerStmt(fd->getBody());
  if (!failed_)
    checkTileShapes();
  return !failed_;
}

/// Kernels are launched by name from the global namespace (the launcher `k<...>(grid, ...)`,
/// the runtime's name expression `k<...>`), so each must be a free function outside named
/// namespaces, with a name of its own. False after reporting one that is not.
static bool checkKernelScope(ASTContext &ctx, const FunctionDecl *fd,
                             std::map<std::string, const FunctionDecl *> &byName) {
  auto &diags = ctx.getDiagnostics();
  auto report = [&](SourceLocation loc, DiagnosticsEngine::Level level, const std::string &msg) {
    diags.Report(loc, diags.getCustomDiagID(level, "%0")) << msg;
  };
  std::string name = fd->getNameAsString();
  for (const DeclContext *dc = fd->getDeclContext(); !dc->isTranslationUnit();
       dc = dc->getParent()) {
    if (auto *rd = dyn_cast<RecordDecl>(dc)) {
      report(fd->getLocation(), DiagnosticsEngine::Error,
             "TILEC_KERNEL '" + name + "' is a member of '" + rd->getNameAsString() +
                 "': kernels must be free functions; declare it outside the class");
      return false;
    }
    auto *ns = dyn_cast<NamespaceDecl>(dc);
    if (ns && !ns->isAnonymousNamespace()) {
      report(fd->getLocation(), DiagnosticsEngine::Error,
             "TILEC_KERNEL '" + name + "' is declared in namespace '" + ns->getNameAsString() +
                 "': kernels and their launchers live in the global namespace; declare it "
                 "outside the namespace (rename it if the name is taken there)");
      return false;
    }
  }
  auto [it, fresh] = byName.emplace(name, fd);
  if (!fresh) {
    report(fd->getLocation(), DiagnosticsEngine::Error,
           "a second TILEC_KERNEL named '" + name +
               "': kernels are found by name, so they cannot be overloaded; rename one (e.g. " +
               name + "_2)");
    report(it->second->getLocation(), DiagnosticsEngine::Note, "the first '" + name + "'");
    return false;
  }
  return true;
}

std::vector<std::unique_ptr<Kernel>> lowerKernels(ASTContext &ctx) {
  Collector c(ctx);
  c.TraverseDecl(ctx.getTranslationUnitDecl());
  std::vector<std::unique_ptr<Kernel>> out;
  std::map<std::string, const FunctionDecl *> byName;
  for (const FunctionDecl *fd : c.found) {
    if (!checkKernelScope(ctx, fd, byName))
      continue;
    auto k = std::make_unique<Kernel>();
    Lowerer l(ctx, *k);
    if (l.lowerKernel(fd))
      out.push_back(std::move(k));
  }
  return out;
}

} // namespace tilec
