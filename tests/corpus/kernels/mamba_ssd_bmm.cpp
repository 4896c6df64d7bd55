// The chunked products of Mamba-2's state space duality (SSD), forward and backward, ported
// from Mamba (github.com/state-spaces/mamba, mamba_ssm/ops/triton/ssd_bmm.py at 07429724:
// _bmm_chunk_fwd_kernel, _bmm_chunk_bwd_kernel and their autotuning configs; Apache License
// 2.0).
//
// Forward: for each batch entry, chunk of chunk_size positions and group, out = a b^T over the
// chunk (a, b: [seqlen, K] slices; out: [chunk_size, chunk_size]), positions past seqlen read
// as 0; IS_CAUSAL skips the output blocks above the diagonal (left unwritten: "arbitrary");
// HAS_SEQ_IDX zeroes out[i, j] where positions i and j belong to different sequences.
// Backward: db = dout a (+ residual) per chunk, dout: [chunk_size, chunk_size].
// Every tensor is addressed through its strides, as the original's host passes them.
//
// Differences from the original: the element types are template parameters, and so is its
// `dot_dtype` constexpr (DOT_T, the type both operands are cast to before tl::dot); Python's
// `min` is tl::minimum.
#include <tilec/tl.h>

template <class T, class TO, class DOT_T, bool IS_CAUSAL, bool HAS_SEQ_IDX, int BLOCK_SIZE_M,
          int BLOCK_SIZE_N, int BLOCK_SIZE_K>
TILEC_KERNEL void _bmm_chunk_fwd_kernel(
    // Pointers to matrices
    const T *a_ptr, const T *b_ptr, TO *out_ptr, const int32_t *seq_idx_ptr,
    // Matrix dimensions
    int seqlen, int chunk_size, int K, int ngroups, int stride_a_batch, int stride_a_seqlen,
    int stride_a_head, int stride_ak, int stride_b_batch, int stride_b_seqlen, int stride_b_head,
    int stride_bk, int stride_out_batch, int stride_out_chunk, int stride_out_head,
    int stride_outm, int stride_outn, int stride_seq_idx_batch, int stride_seq_idx_seqlen) {
  int pid_b = tl::program_id(1);
  int pid_ch = tl::program_id(2);
  int pid_c = pid_ch / ngroups;
  int pid_h = pid_ch - pid_c * ngroups;
  int num_pid_n = tl::cdiv(chunk_size, BLOCK_SIZE_N);
  int pid_m = tl::program_id(0) / num_pid_n;
  int pid_n = tl::program_id(0) % num_pid_n;
  if constexpr (IS_CAUSAL) {
    if (pid_n * BLOCK_SIZE_N >= (pid_m + 1) * BLOCK_SIZE_M)
      return;
  }
  a_ptr += pid_b * stride_a_batch + pid_c * chunk_size * stride_a_seqlen + pid_h * stride_a_head;
  b_ptr += pid_b * stride_b_batch + pid_c * chunk_size * stride_b_seqlen + pid_h * stride_b_head;
  if constexpr (HAS_SEQ_IDX)
    seq_idx_ptr += pid_b * stride_seq_idx_batch + pid_c * chunk_size * stride_seq_idx_seqlen;

  auto offs_m = pid_m * BLOCK_SIZE_M + tl::arange<0, BLOCK_SIZE_M>();
  auto offs_n = pid_n * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>();
  auto offs_k = tl::arange<0, BLOCK_SIZE_K>();
  auto a_ptrs = a_ptr + (tl::expand_dims<1>(offs_m) * stride_a_seqlen +
                         tl::expand_dims<0>(offs_k) * stride_ak);
  auto b_ptrs = b_ptr + (tl::expand_dims<1>(offs_k) * stride_bk +
                         tl::expand_dims<0>(offs_n) * stride_b_seqlen);
  int chunk_size_limit = tl::minimum(chunk_size, seqlen - pid_c * chunk_size);

  auto acc = tl::zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
  for (int k = 0; k < tl::cdiv(K, BLOCK_SIZE_K); k++) {
    auto a = tl::cast<DOT_T>(tl::load(a_ptrs,
                                      (tl::expand_dims<1>(offs_m) < chunk_size_limit) &
                                          (tl::expand_dims<0>(offs_k) < K - k * BLOCK_SIZE_K),
                                      0.0f));
    auto b = tl::cast<DOT_T>(tl::load(b_ptrs,
                                      (tl::expand_dims<1>(offs_k) < K - k * BLOCK_SIZE_K) &
                                          (tl::expand_dims<0>(offs_n) < chunk_size_limit),
                                      0.0f));
    acc += tl::dot(a, b);
    a_ptrs += BLOCK_SIZE_K * stride_ak;
    b_ptrs += BLOCK_SIZE_K * stride_bk;
  }

  offs_m = pid_m * BLOCK_SIZE_M + tl::arange<0, BLOCK_SIZE_M>();
  offs_n = pid_n * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>();
  if constexpr (HAS_SEQ_IDX) {
    int limit = tl::minimum(chunk_size, seqlen - pid_c * chunk_size);
    auto seq_idx_m =
        tl::load(seq_idx_ptr + offs_m * stride_seq_idx_seqlen, offs_m < limit, -1);
    auto seq_idx_n =
        tl::load(seq_idx_ptr + offs_n * stride_seq_idx_seqlen, offs_n < limit, -2);
    acc = tl::where(tl::expand_dims<1>(seq_idx_m) == tl::expand_dims<0>(seq_idx_n), acc, 0.0f);
  }
  auto out = tl::cast<TO>(acc);

  out_ptr += pid_b * stride_out_batch + pid_c * stride_out_chunk + pid_h * stride_out_head;
  auto out_ptrs =
      out_ptr + (stride_outm * tl::expand_dims<1>(offs_m) + tl::expand_dims<0>(offs_n) * stride_outn);
  tl::store(out_ptrs, out,
            (tl::expand_dims<1>(offs_m) < chunk_size) & (tl::expand_dims<0>(offs_n) < chunk_size));
}

template <class T, class TO, class DOT_T, bool HAS_RESIDUAL, int BLOCK_SIZE_M, int BLOCK_SIZE_N,
          int BLOCK_SIZE_CS>
TILEC_KERNEL void _bmm_chunk_bwd_kernel(
    // Pointers to matrices
    const T *a_ptr, const T *dout_ptr, TO *db_ptr, const T *res_ptr,
    // Matrix dimensions
    int seqlen, int chunk_size, int K, int ngroups, int stride_a_batch, int stride_a_seqlen,
    int stride_a_head, int stride_ak, int stride_dout_batch, int stride_dout_chunk,
    int stride_dout_head, int stride_dout_csize_m, int stride_dout_csize_n, int stride_db_batch,
    int stride_db_seqlen, int stride_db_head, int stride_db_k, int stride_res_batch,
    int stride_res_seqlen, int stride_res_head, int stride_res_k) {
  int pid_b = tl::program_id(1);
  int pid_ch = tl::program_id(2);
  int pid_c = pid_ch / ngroups;
  int pid_h = pid_ch - pid_c * ngroups;
  int num_pid_n = tl::cdiv(K, BLOCK_SIZE_N);
  int pid_m = tl::program_id(0) / num_pid_n;
  int pid_n = tl::program_id(0) % num_pid_n;

  a_ptr += pid_b * stride_a_batch + pid_c * chunk_size * stride_a_seqlen + pid_h * stride_a_head;
  dout_ptr += pid_b * stride_dout_batch + pid_c * stride_dout_chunk + pid_h * stride_dout_head;

  auto offs_m = pid_m * BLOCK_SIZE_M + tl::arange<0, BLOCK_SIZE_M>();
  auto offs_n = pid_n * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>();
  auto offs_cs = tl::arange<0, BLOCK_SIZE_CS>();
  auto dout_ptrs = dout_ptr + (tl::expand_dims<1>(offs_m) * stride_dout_csize_n +
                               tl::expand_dims<0>(offs_cs) * stride_dout_csize_m);
  auto a_ptrs = a_ptr + (tl::expand_dims<1>(offs_cs) * stride_a_seqlen +
                         tl::expand_dims<0>(offs_n) * stride_ak);
  int chunk_size_limit = tl::minimum(chunk_size, seqlen - pid_c * chunk_size);

  auto acc = tl::zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
  for (int cs = 0; cs < tl::cdiv(chunk_size_limit, BLOCK_SIZE_CS); cs++) {
    auto dout = tl::cast<DOT_T>(
        tl::load(dout_ptrs,
                 (tl::expand_dims<1>(offs_m) < chunk_size) &
                     (tl::expand_dims<0>(offs_cs) < chunk_size_limit - cs * BLOCK_SIZE_CS),
                 0.0f));
    auto a = tl::cast<DOT_T>(
        tl::load(a_ptrs,
                 (tl::expand_dims<1>(offs_cs) < chunk_size_limit - cs * BLOCK_SIZE_CS) &
                     (tl::expand_dims<0>(offs_n) < K),
                 0.0f));
    acc += tl::dot(dout, a);
    dout_ptrs += BLOCK_SIZE_CS * stride_dout_csize_m;
    a_ptrs += BLOCK_SIZE_CS * stride_a_seqlen;
  }

  offs_m = pid_m * BLOCK_SIZE_M + tl::arange<0, BLOCK_SIZE_M>();
  offs_n = pid_n * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>();
  if constexpr (HAS_RESIDUAL) {
    res_ptr += pid_b * stride_res_batch + pid_c * chunk_size * stride_res_seqlen +
               pid_h * stride_res_head;
    auto res_ptrs = res_ptr + (tl::expand_dims<1>(offs_m) * stride_res_seqlen +
                               tl::expand_dims<0>(offs_n) * stride_res_k);
    auto res = tl::cast<float>(tl::load(
        res_ptrs, (tl::expand_dims<1>(offs_m) < chunk_size_limit) & (tl::expand_dims<0>(offs_n) < K)));
    acc += res;
  }
  auto db = tl::cast<TO>(acc);

  db_ptr += pid_b * stride_db_batch + pid_c * chunk_size * stride_db_seqlen + pid_h * stride_db_head;
  auto db_ptrs = db_ptr + (tl::expand_dims<1>(offs_m) * stride_db_seqlen +
                           tl::expand_dims<0>(offs_n) * stride_db_k);
  tl::store(db_ptrs, db,
            (tl::expand_dims<1>(offs_m) < chunk_size_limit) & (tl::expand_dims<0>(offs_n) < K));
}

// The original's nine configs (the same list for both kernels, BLOCK_SIZE_K / BLOCK_SIZE_CS
// the third value).
TILEC_AUTOTUNE(_bmm_chunk_fwd_kernel) = {
    .configs =
        {
            {.values = {{"BLOCK_SIZE_M", 128}, {"BLOCK_SIZE_N", 256}, {"BLOCK_SIZE_K", 64}},
             .num_warps = 8,
             .num_stages = 3},
            {.values = {{"BLOCK_SIZE_M", 64}, {"BLOCK_SIZE_N", 256}, {"BLOCK_SIZE_K", 32}},
             .num_warps = 4,
             .num_stages = 4},
            {.values = {{"BLOCK_SIZE_M", 128}, {"BLOCK_SIZE_N", 128}, {"BLOCK_SIZE_K", 32}},
             .num_warps = 4,
             .num_stages = 4},
            {.values = {{"BLOCK_SIZE_M", 128}, {"BLOCK_SIZE_N", 64}, {"BLOCK_SIZE_K", 32}},
             .num_warps = 4,
             .num_stages = 4},
            {.values = {{"BLOCK_SIZE_M", 64}, {"BLOCK_SIZE_N", 128}, {"BLOCK_SIZE_K", 32}},
             .num_warps = 4,
             .num_stages = 4},
            {.values = {{"BLOCK_SIZE_M", 128}, {"BLOCK_SIZE_N", 32}, {"BLOCK_SIZE_K", 32}},
             .num_warps = 4,
             .num_stages = 4},
            {.values = {{"BLOCK_SIZE_M", 64}, {"BLOCK_SIZE_N", 32}, {"BLOCK_SIZE_K", 32}},
             .num_warps = 2,
             .num_stages = 5},
            {.values = {{"BLOCK_SIZE_M", 32}, {"BLOCK_SIZE_N", 64}, {"BLOCK_SIZE_K", 32}},
             .num_warps = 2,
             .num_stages = 5},
            {.values = {{"BLOCK_SIZE_M", 64}, {"BLOCK_SIZE_N", 64}, {"BLOCK_SIZE_K", 32}},
             .num_warps = 2,
             .num_stages = 4},
        },
    .key = {"chunk_size", "K"},
};
