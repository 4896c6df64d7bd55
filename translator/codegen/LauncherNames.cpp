#include "codegen/LauncherNames.h"

#include "codegen/NameTable.h"

namespace tilec {

LauncherNames::LauncherNames(const Kernel &k) {
  NameTable names;
  for (auto &p : k.params)
    names.reserve(p.name);
  for (auto &tp : k.templateParams)
    names.reserve(tp.name);
  // In a fixed order, so that the output is deterministic.
  for (auto [slot, want] : {std::pair{&grid, "grid"},
                            {&stream, "stream"},
                            {&kernel, "kernel"},
                            {&key, "key"},
                            {&params, "params"},
                            {&sharedBytes, "shared_bytes"},
                            {&options, "options"},
                            {&tuner, "tuner"},
                            {&div16, "div16"},
                            {&tuningKey, "tuning_key"},
                            {&complete, "complete"},
                            {&specKey, "spec_key"},
                            {&config, "config"},
                            {&launch, "launch"},
                            {&chosen, "chosen"},
                            {&tuning, "tuning"},
                            {&maps, "tma_maps"},
                            {&mapsLive, "tma_maps_live"},
                            {&programs, "programs"},
                            {&encodeMaps, "encode_maps"},
                            {&persistent, "persistent"}})
    *slot = names.fresh(want);
}

} // namespace tilec
