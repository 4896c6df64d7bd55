// libFuzzer target over the translator: source text in, translation out (nothing written).
// An error about the input is an ordinary outcome; a crash, a sanitizer report, a timeout or
// (with TILEC_FUZZ_CHECK=1) output that NVRTC rejects is a bug.
#include "tool/LargeStack.h"
#include "tool/Translate.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const bool check = [] {
    const char *v = std::getenv("TILEC_FUZZ_CHECK");
    return v && *v == '1';
  }();
  tilec::TranslateOptions o;
  o.write = false;
  o.check = check;
  bool rejected = false;
  o.nvrtcRejected = &rejected;
  std::string code(reinterpret_cast<const char *>(data), size);
  // On the stack tilec itself runs on, so that depth is bounded by the translator's limits.
  tilec::runWithLargeStack(std::size_t(1) << 30,
                           [&] { return tilec::translateCode(code, "fuzz.cpp", o); });
  if (rejected) {
    std::fprintf(stderr, "tilec accepted the input but NVRTC rejects its output\n");
    std::abort();
  }
  return 0;
}
