// tilec/tl/autotune.h - autotuning declared next to a kernel (Triton's @triton.autotune and
// @triton.heuristics), read by the translator (docs/autotuning.md):
//
//   TILEC_AUTOTUNE(matmul) = {
//       .configs = {{.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}}, .num_warps = 4},
//                   {.values = {{"BLOCK_M", 64}, {"BLOCK_N", 256}}, .num_warps = 8}},
//       .key = {"M", "N", "K"},
//   };
//
// The translator turns the declaration into `matmul_autotuned<...>(grid, stream, args...)` in
// the launcher header. For a host compiler (the interpreter) it is a plain constant that nothing
// reads, so these types only have to accept the spelling; they store no functions.
#pragma once

#include <tilec/grid.h> // tilec::cdiv and tilec::next_power_of_2 for hooks

#include <initializer_list>

namespace tl {

/// One template parameter's value in a config: {"BLOCK_M", 128}.
struct param_value {
  const char *name;
  long long value;
};

/// One config (Triton's triton.Config): values for some template parameters and the launch
/// options. Every config of a declaration sets the same template parameters.
struct config {
  std::initializer_list<param_value> values = {};
  int num_warps = 4;
  int num_stages = 3;
};

/// A host function run at launch time: a lambda without captures, or the name of a function.
/// Its parameters are bound by name to the kernel's arguments, its template parameters,
/// `num_warps` and `num_stages`. The translator copies its text into the launcher header, so it
/// may use only its parameters, the standard library and tilec:: helpers.
struct hook {
  constexpr hook() = default;
  template <class F> constexpr hook(F) {}
};

/// A template parameter (or num_warps, num_stages) computed from the arguments and the config
/// (Triton's @triton.heuristics): {"EVEN_K", [](int K, int BLOCK_K) { return K % BLOCK_K == 0; }}.
struct heuristic {
  const char *name;
  hook value;
};

/// A pointer argument the kernel writes in place, with its number of elements as a hook of the
/// kernel's arguments: {"c", [](int M, int stride_cm) { return M * stride_cm; }}.
struct buffer {
  const char *name;
  hook count;
};

/// The whole declaration; every member is optional except `configs` for autotuning.
struct autotune {
  std::initializer_list<config> configs = {};
  std::initializer_list<const char *> key = {}; ///< arguments whose values select a choice
  hook prune = {}; ///< keeps a config when it returns true (sees its values and the arguments)
  std::initializer_list<buffer> reset_to_zero = {}; ///< zeroed before each timed run
  std::initializer_list<buffer> restore_value = {}; ///< restored before each timed run
  std::initializer_list<heuristic> heuristics = {}; ///< applied in order, after the config
  double warmup_ms = 25; ///< as Triton's do_bench: warm-up time per config
  double rep_ms = 100;   ///< and time of the timed repetitions per config
};

} // namespace tl

#if defined(__clang__)
#define TILEC_AUTOTUNE_ANNOTATION __attribute__((annotate("tilec.autotune")))
#else
#define TILEC_AUTOTUNE_ANNOTATION
#endif

/// Declares the autotuning of `kernel`, a TILEC_KERNEL of the same file:
/// `TILEC_AUTOTUNE(kernel) = {.configs = {...}, .key = {...}};`
#define TILEC_AUTOTUNE(kernel)                                                                     \
  inline const ::tl::autotune tilec_autotune_##kernel TILEC_AUTOTUNE_ANNOTATION
