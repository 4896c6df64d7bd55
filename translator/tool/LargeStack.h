// Running the translation on a stack large enough for deeply nested input.
//
// clang's parser and tilec's lowering recurse once per level of nesting in the source
// (`- - - x`, `c ? a : c ? b : ...`, `else if` ladders), and the main thread's 8 MiB run out
// at a few thousand levels. The translation runs on a thread with a much larger stack; should
// even that run out, the process says so and exits with status 1 rather than dying by SIGSEGV.
#pragma once

#include <cstddef>
#include <functional>

namespace tilec {

/// Runs `fn` on a thread with a `bytes` stack and returns its result; runs it on the calling
/// thread when such a thread cannot be made. Exits the process with status 1 and a message if
/// the stack is exhausted.
int runWithLargeStack(std::size_t bytes, const std::function<int()> &fn);

} // namespace tilec
