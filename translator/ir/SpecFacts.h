// Specialization facts beyond DIV16's: what a kernel's CUDA may know at compile time about
// one launch, because the launcher computes it from the launch and puts it in the
// specialization key (the same `unsigned long long DIV16` template argument, past the
// arguments' bits).
//
//   K_is_1            an integer argument equals 1 (Triton compiles a kernel again for such an
//                     argument); bit min(params.size(), 61) + j for the j-th of the integer
//                     arguments whose fact the kernel asks about, where that is below 61
//   all_maps_encoded  the launcher encoded every tensor map of the kernel (and, for a
//                     warp-specialized kernel, allowed the producer warpgroup), so the
//                     copy engine's path is the only one compiled (bit 61)
//   grid_y_is_1       the grid has one program along y (bit 62) or z (grid_z_is_1, bit 63), so
//                     tl::program_id(1) or (2) is 0
//
// A pass that wants one says so in the IR: an If on `constexpr(K_is_1)`, a program_id op
// marked `zero_if_grid_1`, or tma_map ops (tma-copies). The emitter declares, and the
// launcher computes, exactly the facts the IR uses; a kernel without them keeps its
// specialization keys.
#pragma once

#include "ir/IR.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

/// Arguments with a DIV16 bit of their own (bit i for argument i): the first 61 (the 64-bit
/// mask keeps 3 bits for the maps and grid facts). Later ones never carry the fact. Mamba's
/// state update takes 45 arguments, its strides' "== 1" facts from bit 45 on.
constexpr size_t kDiv16ArgBits = 61;
inline bool hasDiv16Bit(size_t i) { return i < kDiv16ArgBits; }

/// The constexpr bool in generated code that says integer argument `p` equals 1.
std::string oneFactName(const KernelParam &p);
/// Whether the integer arguments `params` may all get equals-1 facts besides those the kernel
/// asks about already (a pass asks before it copies code for them).
bool roomForOneFacts(const Kernel &k, const std::vector<size_t> &params);

/// The constexpr bool that says every tensor map was encoded, and its DIV16 bit, or -1 when
/// the kernel has no tensor maps or the arguments' own bits reach it.
std::string mapsFactName();
int mapsFactBit(const Kernel &k);

/// The constexpr bool that says the grid has one program along `axis` (1 or 2).
std::string gridFactName(int axis);
int gridFactBit(int axis);

struct SpecFact {
  int bit = 0;
  std::string name; // the constexpr bool of the CUDA
  int param = -1;   // the argument compared with 1, or -1
  int axis = 0;     // the grid fact's axis, or 0
  bool maps = false; // all_maps_encoded
};

/// The bits of the arguments' equals-1 facts that `condition` (an `if constexpr`'s) names.
uint64_t specFactBitsIn(const Kernel &k, const std::string &condition);

/// The facts the kernel's IR uses, by bit.
std::vector<SpecFact> usedSpecFacts(const Kernel &k);

} // namespace tilec
