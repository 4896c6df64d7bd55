// autotune_internal.h - what the autotuner's files share with each other and with
// clear_memory_cache().
#pragma once

#include <tilec/autotune.h>

#include <string>

namespace tilec::detail {

/// "T=tl::half, LEAKY_RELU=false, DIV16=0x1ff, M=4096": the key's values by the spec's names.
std::string describe_tuning_key(const TuningSpec &spec, const SpecKey &key);

struct SpecKeyHash {
  size_t operator()(const SpecKey &k) const;
};

/// Forgets the choices every live Autotuner holds in memory.
void clear_autotune_choices();

} // namespace tilec::detail
