// autotune_record.h - an autotuning choice on disk: one small text file per tuning key, so a
// user can read (or delete) it:
//
//   tilec autotune 2
//   release 0.1.0
//   source <32 hex digits: hash of the CUDA source the choice was timed with>
//   kernel matmul
//   key T=tl::half, LEAKY_RELU=false, DIV16=0x1ff, M=4096, N=4096, K=4096
//   choice BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8, num_warps=8, num_stages=3
//   ms 0.2013
//   check <32 hex digits: hash of the lines above>
//
// Anything that does not parse exactly, or whose check does not match, is rejected, and so
// is a record of another release or source, or one another user could have written
// (cache_trust.h); the autotuner then tunes again and overwrites it.
#pragma once

#include "hash.h"

#include <string>

namespace tilec::detail {

inline constexpr int kTuneRecordVersion = 2;

struct TuneRecord {
  std::string kernel, key, choice; ///< single lines
  double ms = 0;
  std::string release; ///< the tilec version that tuned it (tilec_version())
  Hash128 source;      ///< hash of the CUDA source
};

/// `<dir>/<key hex>.autotune`.
std::string tune_record_path(const std::string &dir, const Hash128 &key);

std::string serialize_tune_record(const TuneRecord &r);
/// False when `text` is not exactly what serialize_tune_record writes.
bool parse_tune_record(const std::string &text, TuneRecord &out);

enum class RecordLookup { Miss, Hit, Rejected };
/// Hit only for a record of this release and `source`; others are Rejected.
RecordLookup load_tune_record(const std::string &dir, const Hash128 &key, const Hash128 &source,
                              TuneRecord &out);
/// Writes atomically; false (silently: the kernel cache warns about the folder) on failure.
bool store_tune_record(const std::string &dir, const Hash128 &key, const TuneRecord &r);

} // namespace tilec::detail
