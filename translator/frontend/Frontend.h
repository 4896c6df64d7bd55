// Frontend: builds tile IR from the clang AST of each TILEC_KERNEL in the main file.
//
// Kernels are templates that are never instantiated: the frontend reads the dependent AST
// (unresolved calls into tl::, operators on `auto` variables) and infers element types and
// symbolic shapes itself. Anything it cannot translate is reported as a located error.
#pragma once

#include "ir/Autotune.h"
#include "ir/IR.h"
#include "target/Target.h"

#include <clang/AST/ASTContext.h>

#include <memory>
#include <vector>

namespace tilec {

/// Lowers every kernel of the main file; errors go to the context's DiagnosticsEngine.
std::vector<std::unique_ptr<Kernel>> lowerKernels(clang::ASTContext &ctx);

/// Errors at the ops of `k` that `target` cannot run (fp8 tl::dot before sm_89).
void checkTarget(clang::ASTContext &ctx, const Kernel &k, const Target &target);

/// After clang reported errors: errors of its own where clang's wording would mislead a kernel
/// author (a run-time value as a tl:: template argument).
void explainClangErrors(clang::ASTContext &ctx);

/// Reads the TILEC_AUTOTUNE declarations of the main file and checks each against its kernel;
/// errors go to the context's DiagnosticsEngine.
std::vector<AutotuneDecl> readAutotuneDecls(clang::ASTContext &ctx,
                                            const std::vector<const Kernel *> &kernels);

} // namespace tilec
