// ptx_link.h - the last step of a runtime compile: NVRTC's PTX, told each kernel's exact
// block size, assembled by the toolkit's ptxas, as Triton assembles its kernels.
#pragma once

#include <string>

namespace tilec::detail {

/// `ptx` with each entry's `.maxntid` directive (its __launch_bounds__ thread count) turned
/// into `.reqntid`: the runtime launches every kernel with exactly that many threads, and
/// ptxas, told so, allocates registers for that size rather than for any size up to it (for
/// 512-thread blocks it otherwise held some kernels at 40 registers and spilled;
/// bench/NOTES.md, "Blocks of exactly N threads"). Other text is left as it is.
std::string exact_block_sizes(std::string ptx);

/// The ptxas the runtime assembles with: $TILEC_PTXAS when set (empty turns the step off),
/// else the one of the toolkit the runtime was built with, else "" when there is none.
std::string ptxas_path();

/// What identifies `ptxas_path()`'s assembler in the disk cache key: its path and the
/// version line it prints ("" when there is none). Computed once per process.
const std::string &ptxas_identity();

/// Runs `ptxas` on `ptx` for `arch` (e.g. "sm_90a") as a whole program with line information
/// and returns true with the cubin, or false with why (its messages) in `why`.
bool assemble_ptx(const std::string &ptxas, const std::string &ptx, const std::string &arch,
                  std::string &cubin, std::string &why);

} // namespace tilec::detail
