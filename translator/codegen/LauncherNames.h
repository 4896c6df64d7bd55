// The identifiers a launcher declares itself (`grid`, `stream`, `options`, `kernel`, ...).
//
// A launcher's parameters after `grid` and `stream` are the kernel's, under their source
// names, so a kernel parameter or template parameter called `grid` or `key` would collide with
// the launcher's own; those then take a fresh name (`grid_1`) instead. Callers pass arguments
// by position, so the launcher's signature is unchanged for them.
#pragma once

#include "ir/IR.h"

#include <string>

namespace tilec {

struct LauncherNames {
  explicit LauncherNames(const Kernel &k);
  // Both launchers.
  std::string grid, stream, kernel, key, params, sharedBytes;
  // Tensor maps for the copy engine, and the mask of those encoded (kernels with tma_maps).
  std::string maps, mapsLive;
  // A persistent kernel's last argument (the grid's x), and whether this launch may be persistent.
  std::string programs, persistent;
  // The plain launcher.
  std::string options;
  // The autotuned launcher.
  std::string tuner, div16, tuningKey, complete, specKey, config, launch, chosen, tuning,
      encodeMaps;
};

} // namespace tilec
