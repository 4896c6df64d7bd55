// moe_routing.h - the routing tables vLLM's fused MoE kernel reads (kernels/vllm_fused_moe.cpp),
// built on the host as vLLM's moe_align_block_size builds them: each token's TOP_K experts,
// the (token, choice) ids grouped by expert and padded to whole blocks of BLOCK_M with an id
// past the last, one expert id per block.
#pragma once

#include <cstdint>
#include <vector>

namespace corpus {

struct MoeRouting {
  std::vector<int32_t> sorted_ids; // padded, BLOCK_M per block; EM long (room past the used)
  std::vector<int32_t> expert_ids; // per block; -1 for an expert not on this rank
  std::vector<int32_t> expert_of;  // per (token, choice)
  std::vector<float> weights;      // per (token, choice)
  int32_t post_padded = 0;         // the used part of sorted_ids
  int valid = 0;                   // tokens * top_k: ids at or past it are padding
};

/// Token t's choice j is expert (t * 7 + j * 5 + t / 3) % E, distinct for j < top_k <= 5
/// when E >= 5 or top_k == 2; experts listed in `off_rank` get -1 blocks.
inline MoeRouting route(int tokens, int top_k, int experts, int block_m,
                        const std::vector<int> &off_rank, unsigned seed) {
  MoeRouting r;
  r.valid = tokens * top_k;
  r.expert_of.resize(size_t(r.valid));
  r.weights.resize(size_t(r.valid));
  uint32_t s = seed;
  for (int t = 0; t < tokens; ++t)
    for (int j = 0; j < top_k; ++j) {
      r.expert_of[size_t(t * top_k + j)] = (t * 7 + j * 5 + t / 3) % experts;
      s = s * 1664525u + 1013904223u;
      r.weights[size_t(t * top_k + j)] = 0.25f + float(s >> 8) / float(1u << 24);
    }
  for (int e = 0; e < experts; ++e) {
    std::vector<int32_t> ids;
    for (int f = 0; f < r.valid; ++f)
      if (r.expert_of[size_t(f)] == e)
        ids.push_back(f);
    if (ids.empty())
      continue;
    while (ids.size() % size_t(block_m))
      ids.push_back(r.valid);
    bool here = true;
    for (int o : off_rank)
      here = here && o != e;
    for (size_t b = 0; b < ids.size() / size_t(block_m); ++b)
      r.expert_ids.push_back(here ? e : -1);
    r.sorted_ids.insert(r.sorted_ids.end(), ids.begin(), ids.end());
  }
  r.post_padded = int32_t(r.sorted_ids.size());
  // The buffers are sized for the worst case, as vLLM's are: blocks past the used part exit.
  for (int extra = 0; extra < 2 * block_m; ++extra)
    r.sorted_ids.push_back(r.valid);
  r.expert_ids.resize(r.sorted_ids.size() / size_t(block_m), 0);
  return r;
}

} // namespace corpus
