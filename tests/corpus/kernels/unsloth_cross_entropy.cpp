// Cross-entropy loss forward (whole row, and chunked for large vocabularies) and backward, with
// Gemma 2's logit softcapping and Cohere's logit scaling, ported from Unsloth
// (github.com/unslothai/unsloth, unsloth/kernels/cross_entropy_loss.py: _cross_entropy_forward,
// _chunked_cross_entropy_forward, _cross_entropy_backward; Apache License 2.0, copyright
// Daniel Han-Chen and the Unsloth team).
// - forward: one program per row, the whole vocabulary in one BLOCK_SIZE tile; stores the
//   row's logsumexp and loss = logsumexp - x[label] (0 for label -100).
// - chunked forward: program (row, chunk) stores the chunk's logsumexp; chunk 0 stores -x[label]
//   as the loss, to which the host adds the logsumexp of the chunks' logsumexps.
// - backward: program (row, block) writes dloss * d(loss)/d(logits) over its block of logits.
// Labels are int64 (torch's LongTensor), loss / logsumexp / dloss float32, as the host code
// allocates them.
//
// What differs from the original, and why:
// - SOFTCAP and LOGIT_SCALE are float tl.constexprs there; C++17 has no float template
//   parameters, so they are float arguments, after the pointers, in their order. The int
//   constexprs (VOCAB_SIZE, BLOCK_SIZE, N_CHUNKS and, for the chunked forward and the
//   backward, the row strides) are int template parameters, DO_SOFTCAPPING and
//   DO_LOGIT_SCALING bool ones.
// - Each kernel is wrapped in triton.heuristics({"DO_SOFTCAPPING": lambda args:
//   bool(args["DO_SOFTCAPPING"]), ...}), which only turns the caller's values into bools;
//   tilec's heuristics cannot read the value the call gives for the parameter they set ("not
//   known yet when the heuristic runs"), and the parameters are bool already: left out.
// - `loss` (and the backward's `dloss`) is assigned in both arms of an `if` on the label; C++
//   declares it before the `if`.
// - triton_cast(x, tl.int64) is tl::cast<int64_t>; triton_tanh (libdevice's tanh) is tl::tanh;
//   `-float("inf")` is -INFINITY.
#include <tilec/tl.h>

template <class T, int VOCAB_SIZE, int BLOCK_SIZE, bool DO_SOFTCAPPING, bool DO_LOGIT_SCALING>
TILEC_KERNEL void cross_entropy_forward(const T *logits_ptr, int logits_row_stride, float *loss_ptr,
                                        float *logsumexp_ptr, const int64_t *labels_ptr,
                                        float SOFTCAP, float LOGIT_SCALE) {
  // CE_i = -y log(softmax(x)_i): for the label (y = 1) logsumexp(x) - x_label, else 0.
  // logsumexp(x) = c + log(sum(exp(x - c))) with c = max(x), so that exp never overflows.
  int row_idx = tl::program_id(0);
  logits_ptr += row_idx * tl::cast<int64_t>(logits_row_stride);
  loss_ptr += row_idx;
  logsumexp_ptr += row_idx;
  labels_ptr += row_idx;

  auto col_offsets = tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < VOCAB_SIZE;

  int label_idx = tl::cast<int32_t>(tl::load(labels_ptr));
  auto logits = tl::cast<float>(tl::load(logits_ptr + col_offsets, mask, -INFINITY));

  // logit scaling (Cohere): t * x
  if constexpr (DO_LOGIT_SCALING)
    logits = LOGIT_SCALE * logits;
  // logit softcapping (Gemma 2): t * tanh(x / t)
  if constexpr (DO_SOFTCAPPING)
    logits = SOFTCAP * tl::tanh(logits / SOFTCAP);

  float c = tl::max<0>(logits);
  float logsumexp = c + tl::log(tl::sum<0>(tl::exp(logits - c)));

  float loss = 0.0f;
  if (label_idx != -100) {
    float x = tl::cast<float>(tl::load(logits_ptr + label_idx));
    // logit scaling (Cohere): t * x
    if constexpr (DO_LOGIT_SCALING)
      x = LOGIT_SCALE * x;
    // logit softcapping (Gemma 2): t * tanh(x / t)
    if constexpr (DO_SOFTCAPPING)
      x = SOFTCAP * tl::tanh(x / SOFTCAP);
    loss = logsumexp - x;
  } else {
    loss = 0.0f;
  }
  tl::store(logsumexp_ptr, logsumexp);
  tl::store(loss_ptr, loss);
}

template <class T, int logits_row_stride, int VOCAB_SIZE, int N_CHUNKS, int BLOCK_SIZE,
          bool DO_SOFTCAPPING, bool DO_LOGIT_SCALING>
TILEC_KERNEL void chunked_cross_entropy_forward(const T *logits_ptr, float *loss_ptr,
                                                float *logsumexp_ptr, const int64_t *labels_ptr,
                                                float SOFTCAP, float LOGIT_SCALE) {
  // A 256K vocabulary in chunks of 65536: the logsumexp of the chunks' logsumexps is the
  // row's logsumexp (log of the sum of the chunks' sums of exp), so each program does one
  // chunk and the host finishes: loss = logsumexp(chunk logsumexps) - x_label, the -x_label
  // from chunk 0.
  int row_idx = tl::program_id(0);
  int chunk_idx = tl::program_id(1);
  logits_ptr += row_idx * tl::cast<int64_t>(logits_row_stride);
  loss_ptr += row_idx;
  logsumexp_ptr += row_idx * N_CHUNKS + chunk_idx;
  labels_ptr += row_idx;

  auto col_offsets = chunk_idx * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < VOCAB_SIZE;

  int label_idx = tl::cast<int32_t>(tl::load(labels_ptr));
  auto logits = tl::cast<float>(tl::load(logits_ptr + col_offsets, mask, -INFINITY));

  // logit scaling (Cohere): t * x
  if constexpr (DO_LOGIT_SCALING)
    logits = LOGIT_SCALE * logits;
  // logit softcapping (Gemma 2): t * tanh(x / t)
  if constexpr (DO_SOFTCAPPING)
    logits = SOFTCAP * tl::tanh(logits / SOFTCAP);

  float c = tl::max<0>(logits);
  float logsumexp = c + tl::log(tl::sum<0>(tl::exp(logits - c)));

  if (chunk_idx == 0) {
    // the -x part of logsumexp(chunk logsumexps) - x, here
    float loss = 0.0f;
    if (label_idx != -100) {
      float x = tl::cast<float>(tl::load(logits_ptr + label_idx));
      // logit scaling (Cohere): t * x
      if constexpr (DO_LOGIT_SCALING)
        x = LOGIT_SCALE * x;
      // logit softcapping (Gemma 2): t * tanh(x / t)
      if constexpr (DO_SOFTCAPPING)
        x = SOFTCAP * tl::tanh(x / SOFTCAP);
      loss = -1.0f * x;
    } else {
      loss = 0.0f;
    }
    tl::store(loss_ptr, loss);
  }
  tl::store(logsumexp_ptr, logsumexp);
}

template <class T, int logits_row_stride, int dloss_row_stride, int VOCAB_SIZE, int BLOCK_SIZE,
          bool DO_SOFTCAPPING, bool DO_LOGIT_SCALING>
TILEC_KERNEL void cross_entropy_backward(T *logits_ptr, const float *dloss_ptr,
                                         const float *logsumexp_ptr, const int64_t *labels_ptr,
                                         float SOFTCAP, float LOGIT_SCALE) {
  // d/dx logsumexp(x) = softmax(x) = exp(x - logsumexp), so
  // dC/dx_label = exp(x_label - logsumexp) - 1 and dC/dx_i = exp(x_i - logsumexp) otherwise
  // (all zero for label -100).
  int row_idx = tl::program_id(0);
  int block_idx = tl::program_id(1);

  logits_ptr += row_idx * tl::cast<int64_t>(logits_row_stride);
  dloss_ptr += row_idx * dloss_row_stride;
  auto col_offsets = block_idx * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
  auto mask = col_offsets < VOCAB_SIZE;
  int label_idx = tl::cast<int32_t>(tl::load(labels_ptr + row_idx));

  float dloss = 0.0f;
  if (label_idx != -100)
    dloss = tl::load(dloss_ptr);
  else
    dloss = 0.0f;

  auto x = tl::cast<float>(tl::load(logits_ptr + col_offsets, mask, -INFINITY));

  // logit scaling (Cohere)
  if constexpr (DO_LOGIT_SCALING) {
    // d/dx [s * x] = s
    x = x * LOGIT_SCALE;
  }

  // logit softcapping (Gemma 2): t * tanh(x / t)
  auto partial = x;
  if constexpr (DO_SOFTCAPPING) {
    // d/dx [t * tanh(x / t)] = 1 - tanh^2(x / t)
    partial = tl::tanh(x / SOFTCAP);
    x = SOFTCAP * partial;
  }

  float logsumexp = tl::load(logsumexp_ptr + row_idx);
  auto y = tl::exp(x - logsumexp);
  y = tl::where(col_offsets == label_idx,
                y - 1.0f, // exp(x - logsumexp) - 1
                y);       // exp(x - logsumexp)

  if constexpr (DO_LOGIT_SCALING) {
    // d/dx [s * x] = s
    y = y * LOGIT_SCALE;
  }

  if constexpr (DO_SOFTCAPPING) {
    // d/dx [t * tanh(x / t)] = 1 - tanh^2(x / t)
    y = y * (1.0f - partial * partial);
  }

  // label -100: dloss is 0, so the row's gradient is 0
  tl::store(logits_ptr + col_offsets, dloss * y, mask);
}
