// Two partial attention results merged by their log-sum-exps (cascade and split-KV
// attention), ported from vLLM (github.com/vllm-project/vllm,
// vllm/attention/ops/triton_merge_attn_states.py at 0a345fd0: merge_attn_states_kernel;
// Apache License 2.0; section 2.2 of arXiv 2501.01005).
//
// A program per (token, head): out = p_out * exp(p_lse - m) / se + s_out * exp(s_lse - m) /
// se, with m the larger lse and se the two exponentials' sum; an lse of +inf (FlashAttention
// 2's empty sequence) counts as -inf. OUTPUT_LSE also stores log(se) + m. Outputs and
// partial outputs are [tokens, heads, HEAD_SIZE]; the lse arrays [heads, tokens].
//
// Differences from the original: the element type is a template parameter. The partial
// outputs are cast to float before they are scaled: Triton promotes a 16-bit tile times a
// float it computed to float, tilec keeps the tile's type.
#include <tilec/tl.h>

template <class T, int HEAD_SIZE, int PADDED_HEAD_SIZE, bool OUTPUT_LSE>
TILEC_KERNEL void merge_attn_states_kernel(T *output, float *output_lse, const T *prefix_output,
                                           const float *prefix_lse, const T *suffix_output,
                                           const float *suffix_lse) {
  int token_idx = tl::program_id(0);
  int num_tokens = tl::num_programs(0);
  int head_idx = tl::program_id(1);
  int num_heads = tl::num_programs(1);

  float p_lse = tl::load(prefix_lse + head_idx * num_tokens + token_idx);
  float s_lse = tl::load(suffix_lse + head_idx * num_tokens + token_idx);

  // FA2 and FA3 differ where the sum of exponentials is 0 (sequences of length 0): FA3 gives
  // -inf, FA2 +inf; +inf is taken for -inf.
  p_lse = p_lse == INFINITY ? -INFINITY : p_lse;
  s_lse = s_lse == INFINITY ? -INFINITY : s_lse;

  float max_lse = tl::maximum(p_lse, s_lse);
  p_lse = p_lse - max_lse;
  s_lse = s_lse - max_lse;
  float out_se = tl::exp(p_lse) + tl::exp(s_lse);

  if constexpr (OUTPUT_LSE) {
    float out_lse = tl::log(out_se) + max_lse;
    tl::store(output_lse + head_idx * num_tokens + token_idx, out_lse);
  }

  auto head_arange = tl::arange<0, PADDED_HEAD_SIZE>();
  auto head_mask = head_arange < HEAD_SIZE;
  auto p_out = tl::cast<float>(tl::load(
      prefix_output + token_idx * num_heads * HEAD_SIZE + head_idx * HEAD_SIZE + head_arange,
      head_mask));
  auto s_out = tl::cast<float>(tl::load(
      suffix_output + token_idx * num_heads * HEAD_SIZE + head_idx * HEAD_SIZE + head_arange,
      head_mask));

  // The scales first, then the outputs times them (numerical stability, as the original).
  float p_scale = tl::exp(p_lse) / out_se;
  float s_scale = tl::exp(s_lse) / out_se;
  auto out = p_out * p_scale + s_out * s_scale;
  tl::store(output + token_idx * num_heads * HEAD_SIZE + head_idx * HEAD_SIZE + head_arange,
            tl::cast<T>(out), head_mask);
}
