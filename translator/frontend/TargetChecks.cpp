// Operations the target (--arch) cannot run, known at translation when their types are: a
// located error rather than a static_assert of the device library when the CUDA is compiled.
#include "frontend/Frontend.h"

namespace tilec {

void checkTarget(clang::ASTContext &ctx, const Kernel &k, const Target &target) {
  auto &diags = ctx.getDiagnostics();
  walk(k, [&](const Op &op) {
    if (op.kind != OpKind::Dot || op.operands.empty() || target.mmaSyncFp8 ||
        !op.operands[0]->type.elem.isFp8())
      return;
    diags.Report(op.loc, diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0"))
        << "tl::dot of fp8 operands (tl::float8_e4m3, tl::float8_e5m2) needs sm_89 or newer "
           "(mma.sync has no fp8 operands before), and --arch=" + target.arch +
               " includes older GPUs: translate with --arch=sm_89 or newer, or cast the "
               "operands to tl::half";
  });
}

} // namespace tilec
