// Autotuned kernels for the GPU tests: in-place outputs (reset_to_zero, restore_value), a
// heuristic-only kernel, and a tl::dot kernel whose configs include one that needs more shared
// memory than a GPU has (it must be skipped, not fail the launch).
#include <tilec/tl.h>

// out[i] += x[i] with atomics: timing runs would add up without reset_to_zero.
template <int BLOCK>
TILEC_KERNEL void accumulate(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::atomic_add(out + offs, tl::load(x + offs, mask), mask);
}

TILEC_AUTOTUNE(accumulate) = {
    .configs = {{.values = {{"BLOCK", 128}}, .num_warps = 1},
                {.values = {{"BLOCK", 512}}, .num_warps = 4},
                {.values = {{"BLOCK", 2048}}, .num_warps = 8}},
    .key = {"n"},
    .reset_to_zero = {{"out", [](int n) { return n; }}},
};

// x[i] = x[i] * s + 1 in place: timing runs would compound without restore_value.
template <int BLOCK>
TILEC_KERNEL void scale_in_place(float *x, int n, float s) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(x + offs, tl::load(x + offs, mask) * s + 1.0f, mask);
}

TILEC_AUTOTUNE(scale_in_place) = {
    .configs = {{.values = {{"BLOCK", 256}}, .num_warps = 2},
                {.values = {{"BLOCK", 1024}}, .num_warps = 4}},
    .key = {"n"},
    .restore_value = {{"x", [](int n) { return n; }}},
};

// Row sums with BLOCK and num_warps from heuristics only (Triton's @triton.heuristics).
template <int BLOCK>
TILEC_KERNEL void row_sum(const float *in, float *out, int n_cols) {
  auto cols = tl::arange<0, BLOCK>();
  auto x = tl::load(in + tl::program_id(0) * n_cols + cols, cols < n_cols);
  tl::store(out + tl::program_id(0), tl::sum(x));
}

TILEC_AUTOTUNE(row_sum) = {
    .heuristics = {{"BLOCK", [](int n_cols) { return tilec::next_power_of_2(n_cols); }},
                   {"num_warps", [](int BLOCK) { return BLOCK >= 4096 ? 8 : 4; }}},
};

// C [M, N] = A [M, K] @ B [K, N] in fp16 with float accumulation; M, N, K multiples of the
// blocks. The second config's stages need 256 KB of shared memory: more than any GPU allows.
template <int BLOCK_M, int BLOCK_N, int BLOCK_K>
TILEC_KERNEL void tuned_matmul(const tl::half *a, const tl::half *b, float *c, int M, int N,
                               int K) {
  auto rows = tl::program_id(0) * BLOCK_M + tl::arange<0, BLOCK_M>();
  auto cols = tl::program_id(1) * BLOCK_N + tl::arange<0, BLOCK_N>();
  auto ks = tl::arange<0, BLOCK_K>();
  auto a_ptrs = a + tl::expand_dims<1>(rows) * K + tl::expand_dims<0>(ks);
  auto b_ptrs = b + tl::expand_dims<1>(ks) * N + tl::expand_dims<0>(cols);
  auto acc = tl::zeros<float, BLOCK_M, BLOCK_N>();
  for (int k = 0; k < K; k += BLOCK_K) {
    acc = tl::dot(tl::load(a_ptrs), tl::load(b_ptrs), acc);
    a_ptrs += BLOCK_K;
    b_ptrs += BLOCK_K * N;
  }
  tl::store(c + tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols), acc);
}

TILEC_AUTOTUNE(tuned_matmul) = {
    .configs = {{.values = {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"BLOCK_K", 32}}, .num_stages = 3},
                {.values = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 128}},
                 .num_warps = 8,
                 .num_stages = 4}},
    .key = {"M", "N", "K"},
};
