// aot_registry.h - kernels compiled ahead of time by nvcc, found before NVRTC is tried.
#pragma once

#include <string>

namespace tilec::detail {

using AotResolver = void *(*)();

/// The best registered kernel for a launch of `name_expression`: the same name and
/// template arguments up to DIV16, and among those the variant whose DIV16 mask is the
/// largest subset of the launch's mask (facts the kernel assumes must hold at the launch).
/// Returns nullptr when none fits; `chosen` receives the registered name.
AotResolver find_aot_kernel(const std::string &name_expression, std::string *chosen = nullptr);

} // namespace tilec::detail
