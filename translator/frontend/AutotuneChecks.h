// Checks of a TILEC_AUTOTUNE declaration against its kernel (AutotuneChecks.cpp).
#pragma once

#include "ir/Autotune.h"
#include "ir/IR.h"

#include <clang/Basic/Diagnostic.h>

namespace tilec {

/// Reports what does not fit the kernel (unknown template parameters, a key that is not an
/// argument, hooks with unbound parameters, ...) as located errors; on success puts each
/// config's values into the kernel's template order and fills `decl.tuned`.
bool checkAutotune(AutotuneDecl &decl, const Kernel &k, clang::DiagnosticsEngine &diags);

} // namespace tilec
