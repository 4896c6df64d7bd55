#include "tool/Resources.h"

#include <llvm/Support/FileSystem.h>

#include <cstdlib>
#include <filesystem>

namespace tilec {

namespace fs = std::filesystem;

namespace {

std::string envOrFound(const char *var, const fs::path &dir, const char *mustHold) {
  if (const char *v = std::getenv(var); v && *v)
    return v;
  std::error_code ec;
  return fs::exists(dir / mustHold, ec) ? dir.string() : "";
}

} // namespace

const Resources &resources() {
  static const Resources r = [] {
    // getMainExecutable needs an address inside the program only on systems without
    // /proc/self/exe; any address of ours will do. It resolves symlinks (a /usr/bin/tilec
    // linking into a prefix finds that prefix).
    static int anchor;
    fs::path exe = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
    fs::path prefix = exe.parent_path().parent_path();
    std::error_code ec;
    Resources out;
    out.include = envOrFound("TILEC_INCLUDE_DIR", prefix / "include", "tilec/tl.h");
    out.templates = envOrFound("TILEC_TEMPLATES_DIR", prefix / "include", "tilec/device.cuh");
    fs::path clang = prefix / "lib" / "tilec" / "clang";
    out.clangResource = fs::exists(clang / "include" / "stddef.h", ec) ? clang.string() : "";
    return out;
  }();
  return r;
}

} // namespace tilec
