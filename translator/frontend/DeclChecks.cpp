// Declarations that C++ allows in a kernel but that would behave differently on the GPU than
// in the interpreter, or that would break the generated code: each is a located error saying
// what to write instead.
#include "frontend/Lowerer.h"

#include <clang/AST/Decl.h>

#include <cctype>

namespace tilec {

using namespace clang;

bool Lowerer::checkName(SourceLocation loc, const std::string &name, const char *what) {
  // Types and built-in variables the generated CUDA and launcher spell unqualified; a
  // parameter or local of that name would hide them there and the output would not compile.
  static const char *const kTaken[] = {
      "int8_t",    "uint8_t",  "int16_t",  "uint16_t",  "int32_t",  "uint32_t",
      "int64_t",   "uint64_t", "size_t",   "ptrdiff_t", "intptr_t", "uintptr_t",
      "threadIdx", "blockIdx", "blockDim", "gridDim",   "warpSize"};
  for (const char *t : kTaken)
    if (name == t) {
      error(loc, std::string(what) + " name '" + name +
                     "' hides a name the generated CUDA uses; rename it");
      return false;
    }
  // Names C++ reserves for the implementation: CUDA's keywords and macros live there
  // (`__shared__`, `__restrict__`), and the generated code would not compile with one.
  if (name.size() > 1 && name[0] == '_' &&
      (name[1] == '_' || std::isupper(static_cast<unsigned char>(name[1])))) {
    error(loc, std::string(what) + " name '" + name +
                   "' is reserved (a leading '__' or '_' and a capital, where CUDA's own "
                   "keywords such as __shared__ live); rename it");
    return false;
  }
  return true;
}

bool Lowerer::checkVarDecl(const VarDecl *vd, VarRole role) {
  const char *what = role == VarRole::KernelParam   ? "kernel parameter"
                     : role == VarRole::HelperParam ? "helper parameter"
                                                    : "local variable";
  // A helper's declarations are seen once per call: judge (and report) them once.
  if (auto it = checkedDecls_.find(vd); it != checkedDecls_.end())
    return it->second;
  bool &ok = checkedDecls_[vd];
  // A helper's parameters are bound to its arguments' values and never named in the output.
  ok = role == VarRole::HelperParam || checkName(vd->getLocation(), vd->getNameAsString(), what);
  QualType t = vd->getType();
  // The translator gives each variable a value of its own: an alias would not see the writes
  // made through it, so `count` in the caller (or launcher) would keep its old value.
  if (t->isReferenceType() && !t.getNonReferenceType().isConstQualified()) {
    std::string type = t.getNonReferenceType().getAsString();
    std::string fix = role == VarRole::Local
                          ? "use a value ('" + type + " x = ...') and assign it back"
                      : role == VarRole::HelperParam
                          ? "take it by value ('" + type + " " + vd->getNameAsString() +
                                "') and return the new value"
                          : "pass '" + type + "' by value and write results through a pointer";
    error(vd->getLocation(), std::string(what) + " '" + vd->getNameAsString() +
                                 "' is a reference: writes through it would be lost in the "
                                 "CUDA; " +
                                 fix);
    ok = false;
  }
  if (vd->isStaticLocal() || vd->hasExternalStorage() || vd->getTLSKind() != VarDecl::TLS_None) {
    error(vd->getLocation(),
          "'" + vd->getNameAsString() +
              "' is static: the interpreter shares it between program instances, the GPU does "
              "not; use a plain local, or tl::atomic_add on a buffer to count across programs");
    ok = false;
  }
  return ok;
}

bool Lowerer::rejectedDecl(const ValueDecl *d) const {
  auto *vd = dyn_cast<VarDecl>(d);
  auto it = vd ? checkedDecls_.find(vd) : checkedDecls_.end();
  return it != checkedDecls_.end() && !it->second;
}

} // namespace tilec
